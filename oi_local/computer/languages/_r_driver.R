# The child side of the R language: `Rscript --vanilla _r_driver.R CMD_FD CTL_FD`.
# Cells arrive on CMD_FD as "<byte length>\n<code>"; control lines go to CTL_FD: "L<line>"
# (active line) and "D<status>" (done). Each top-level expression runs in the global environment
# and prints its value when visible, as at the R prompt; an error ends the cell with status 1.
local({
  args <- commandArgs(trailingOnly = TRUE)
  cmd <- file(sprintf("/dev/fd/%s", args[[1]]), "rb")
  ctl <- file(sprintf("/dev/fd/%s", args[[2]]), "wb")
  send <- function(text) {
    flush(stdout()); flush(stderr())
    writeBin(charToRaw(text), ctl); flush(ctl)
  }
  run_cell <- function(code) {
    exprs <- tryCatch(parse(text = code, keep.source = TRUE), error = function(e) e)
    if (inherits(exprs, "error")) {
      cat("Error: ", conditionMessage(exprs), "\n", sep = "", file = stderr())
      return(1L)
    }
    refs <- attr(exprs, "srcref")
    for (i in seq_along(exprs)) {
      if (!is.null(refs)) send(sprintf("L%d\n", refs[[i]][[1]]))
      ok <- tryCatch({
        res <- withVisible(eval(exprs[[i]], envir = globalenv()))
        if (res$visible) print(res$value)
        TRUE
      }, error = function(e) {
        call <- conditionCall(e)
        where <- if (is.null(call) || identical(call[[1L]], as.name("eval"))) "" else paste0(" in ", paste(deparse(call), collapse = " "))
        cat("Error", where, ": ", conditionMessage(e), "\n", sep = "", file = stderr())
        FALSE
      }, interrupt = function(e) {
        cat("Interrupted (SIGINT).\n", file = stderr())
        NA
      })
      if (is.na(ok)) return(130L)
      if (!ok) return(1L)
    }
    0L
  }
  repeat {
    header <- readLines(cmd, n = 1L, warn = FALSE)
    if (length(header) == 0L) break  # the parent closed the pipe: exit
    n <- as.integer(header)
    code <- if (n > 0L) rawToChar(readBin(cmd, "raw", n)) else ""
    Encoding(code) <- "UTF-8"
    status <- run_cell(code)
    send(sprintf("D%d\n", status))
  }
})
