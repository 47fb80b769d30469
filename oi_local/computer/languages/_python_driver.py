# The child side of the Python language, run as `python -u -c <this file's text> CMD_FD CTL_FD`.
# Everything lives inside _oi_main so that __main__ (the namespace cells run in, so that
# `if __name__ == "__main__":` and pickling work) holds none of the driver's names.


def _oi_main():
    import ast
    import builtins
    import linecache
    import os
    import signal
    import sys

    sys.modules["__main__"].__dict__.pop("_oi_main", None)
    cmd_fd, ctl_fd = int(sys.argv[1]), int(sys.argv[2])
    sys.argv[:] = [""]
    os.set_inheritable(ctl_fd, False)  # programs the code starts must not hold our pipes
    os.set_inheritable(cmd_fd, False)
    cmd = os.fdopen(cmd_fd, "rb")
    ns = sys.modules["__main__"].__dict__
    write = os.write
    my_pid = os.getpid()
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    co_coroutine = 0x80  # inspect.CO_COROUTINE, without importing inspect
    line_budget = 20000  # line events traced per code object; then tracing stops (speed)
    # Any trace function slows ALL Python code ~2x on 3.11, so tracing ends once the cell has used
    # this much CPU: code that waits (sleep, I/O) keeps exact active lines, CPU-bound code runs
    # at full speed after a short start.
    trace_cpu_budget = 0.2

    in_cell = False
    busy = False  # from reading a cell until its "done" is sent
    pending = False  # SIGINT arrived before the cell's code started
    cell_no = 0
    last_line = -1
    events = 0
    target = None
    loop = None

    def flush():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass

    def send(msg):
        flush()  # output printed before this message must reach its pipe first
        view = memoryview(msg)
        while view:
            view = view[write(ctl_fd, view):]

    def on_sigint(signum, frame):
        nonlocal pending
        if in_cell:
            raise KeyboardInterrupt
        if busy:  # the cell is about to start: interrupt it as soon as it does
            pending = True
        # idle (or reporting "done"): a late SIGINT must not kill the driver

    def displayhook(value):
        # Like sys.__displayhook__, but one write: the repr and its newline arrive as one chunk.
        if value is None:
            return
        builtins._ = None
        sys.stdout.write(repr(value) + "\n")
        builtins._ = value

    def ask_input(prompt=""):
        # The parent asks the person at the terminal (if any) and answers with "A<len>\n<text>",
        # or "A-1\n" when no one can answer. The "A" keeps a late answer from being read as a cell.
        import json

        prompt = str(prompt)
        if prompt:
            sys.stdout.write(prompt)
        send(b"Q" + json.dumps(prompt).encode() + b"\n")
        n = read_answer()
        if n < 0:
            raise EOFError(
                "input() has no one to answer it: code runs without a person at the keyboard here. "
                "Put the values in the code instead."
            )
        answer = cmd.read(n).decode("utf-8", "surrogateescape")
        sys.stdout.write(answer + "\n")  # as a terminal echoes what was typed
        return answer

    def read_answer():
        header = cmd.readline()
        if not header:
            os._exit(0)  # the parent is gone
        return int(header[1:])

    # Active lines: only the cell's own top-level code object is traced. The global trace
    # function becomes the C builtin getattr (getattr(frame, "call", None) -> None) once the cell
    # frame has its line tracer, so other Python calls pay almost nothing.
    def line_tracer(frame, event, arg):
        nonlocal last_line, events
        if event == "line":
            n = frame.f_lineno
            if n != last_line:
                last_line = n
                send(b"L%d\n" % n)
            events += 1
            if events > line_budget:
                frame.f_trace_lines = False
        return line_tracer

    def stop_tracing(signum, frame):  # SIGVTALRM: the cell used trace_cpu_budget s of CPU
        sys.settrace(None)

    def first_call(frame, event, arg):
        if frame.f_code is target:
            sys.settrace(getattr)
            return line_tracer
        return None

    shown = set()  # figures plt.show() sent this cell: still open, so a savefig after it saves the plot

    def emit_figures(end=True):
        plt = sys.modules.get("matplotlib.pyplot")
        if plt is None or not plt.get_fignums():
            shown.clear()
            return
        import base64
        import io

        for num in plt.get_fignums():
            fig = plt.figure(num)
            if end and id(fig) in shown:
                continue  # sent by plt.show() already
            buf = io.BytesIO()
            fig.savefig(buf, format="png", bbox_inches="tight")
            send(b"I" + base64.b64encode(buf.getvalue()) + b"\n")
            cmd.read(1)  # the parent's acknowledgement: nothing printed later can overtake the image
            shown.add(id(fig))
        if end:
            # Closed at the end of the cell, not at show(): closed there (as Jupyter does), the
            # common `plt.show(); plt.savefig("out.png")` saved a blank file, where a script
            # run with `python` saves the plot.
            plt.close("all")
            shown.clear()

    def show(*args, **kwargs):
        emit_figures(end=False)

    def emit_image(png):
        """An image for the parent (the Computer API's screenshots use it)."""
        import base64

        send(b"I" + base64.b64encode(png) + b"\n")
        cmd.read(1)

    import types

    sys.modules["_oi_driver"] = types.SimpleNamespace(emit_image=emit_image)

    class PyplotHook:
        """Replaces matplotlib.pyplot.show as soon as pyplot is imported (MPLBACKEND=Agg)."""

        def find_spec(self, name, path=None, target=None):
            if name != "matplotlib.pyplot":
                return None
            from importlib.machinery import PathFinder

            spec = PathFinder.find_spec(name, path)
            if spec is None or not hasattr(spec.loader, "exec_module"):
                return spec
            real_exec = spec.loader.exec_module

            def exec_module(module):
                real_exec(module)
                module.show = show

            spec.loader.exec_module = exec_module
            return spec

    # Errors whose cause is usually the shape of the data (a key, a string read from a CSV, a short
    # list): the traceback shows the line, not what its names held, and a small model then guesses.
    data_errors = (KeyError, TypeError, ValueError, IndexError, AttributeError)

    def values_line(exc, kept):
        """One line with the values of the names on the failing line of the cell (a repr each, cut
        short), for data errors; "" otherwise or when anything goes wrong."""
        try:
            import re
            import reprlib
            import types

            if not isinstance(exc, data_errors):
                return ""
            cells = [t for t in kept if t.tb_frame.f_code.co_filename.startswith("<cell-")]
            if not cells:
                return ""
            t = cells[-1]
            line = linecache.getline(t.tb_frame.f_code.co_filename, t.tb_lineno)
            scope = {**t.tb_frame.f_globals, **t.tb_frame.f_locals}
            short = reprlib.Repr()  # bounded: a list of a million rows is not written out first
            short.maxdict, short.maxlist, short.maxtuple, short.maxstring, short.maxother = 12, 6, 6, 60, 120
            shown = []
            for name in dict.fromkeys(re.findall(r"(?<![.\w])[A-Za-z_]\w*", line.split("#")[0])):
                if name not in scope or name.startswith("__"):
                    continue
                value = scope[name]
                if isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type)):
                    continue
                r = short.repr(value)
                r = r[:160] + "..." if len(r) > 160 else r
                if isinstance(value, (list, tuple, dict, set, str)) and "..." in r:  # cut short: say how long
                    r += f" (length {len(value)})"
                shown.append(f"{name} = {r}")
                if len(shown) == 4:
                    break
            return f"Values on that line: {'; '.join(shown)}\n" if shown else ""
        except Exception:  # a repr that fails must not hide the error itself
            return ""

    def print_exception(exc):
        import traceback

        frames = []
        tb = exc.__traceback__
        while tb is not None:
            frames.append(tb)
            tb = tb.tb_next
        # Drop the driver's own frames and what runs the cell (asyncio), keep the code's.
        # (Relinking tb_next is allowed since Python 3.7.)
        first = next((i for i, t in enumerate(frames) if t.tb_frame.f_code.co_filename.startswith("<cell-")),
                     len(frames))  # none: e.g. a SyntaxError from ast.parse, shown without frames
        kept = [t for t in frames[first:] if t.tb_frame.f_code not in driver_codes]
        for a, b in zip(kept, kept[1:] + [None]):
            a.tb_next = b
        tb = kept[0] if kept else None
        flush()
        text = "".join(traceback.format_exception(type(exc), exc, tb)) + values_line(exc, kept)
        try:
            sys.stderr.write(text)
            sys.stderr.flush()
        except Exception:
            write(2, text.encode("utf-8", "replace"))

    # Names a cell may use without importing them (models forget `import os` all the time):
    # imported into the session just before a cell that reads such a name while it is undefined.
    auto_names = {m: (m, None) for m in (
        "os", "sys", "re", "json", "math", "csv", "datetime", "time", "subprocess", "shutil", "glob",
        "statistics", "random", "collections", "itertools", "functools", "pathlib", "string",
        "textwrap", "hashlib", "calendar", "decimal", "fractions", "platform", "tempfile", "zipfile",
        "tarfile", "io", "base64", "uuid", "pprint", "operator", "heapq", "bisect", "struct")}
    auto_names.update({"np": ("numpy", None), "pd": ("pandas", None), "plt": ("matplotlib.pyplot", None),
                       "Path": ("pathlib", "Path"), "computer": ("oi_local.computer.api.session", "computer")})
    # ... and the names people import from those modules (`defaultdict(int)` without its import)
    auto_names.update({n: ("collections", n) for n in ("defaultdict", "Counter", "OrderedDict", "deque", "namedtuple")})
    auto_names.update({n: ("datetime", n) for n in ("date", "timedelta")})
    auto_names.update({n: ("statistics", n) for n in ("mean", "median")})
    auto_names.update({"reduce": ("functools", "reduce"), "sqrt": ("math", "sqrt")})

    # JSON literals written as Python (small models copy JSON into code).
    json_names = {"true": True, "false": False, "null": None}

    def auto_import(tree):
        import importlib

        wanted = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                  and (n.id in auto_names or n.id in json_names) and n.id not in ns and not hasattr(builtins, n.id)}
        for name in sorted(wanted):
            if name in json_names:
                ns[name] = json_names[name]
                continue
            module, attr = auto_names[name]
            try:
                value = importlib.import_module(module)
                ns[name] = getattr(value, attr) if attr else value
            except Exception:  # not installed: the cell gets its usual NameError
                pass

    def run_code(code):
        nonlocal target, loop
        target = code
        if signal.getitimer(signal.ITIMER_VIRTUAL)[0]:  # CPU budget not used up yet
            sys.settrace(first_call)
        try:
            if code.co_flags & co_coroutine:  # top-level await
                import asyncio

                if loop is None or loop.is_closed():
                    loop = asyncio.new_event_loop()
                loop.run_until_complete(eval(code, ns))
            else:
                exec(code, ns)
        finally:
            sys.settrace(None)

    def run_cell(src):
        nonlocal in_cell, cell_no, last_line, events, pending
        cell_no += 1
        name = f"<cell-{cell_no}>"
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)  # for tracebacks
        last_line = -1
        events = 0
        if signal.getsignal(signal.SIGINT) is not on_sigint:
            signal.signal(signal.SIGINT, on_sigint)
        if sys.stdin is None or sys.stdin.closed:  # exit()/quit() close sys.stdin
            sys.stdin = open(os.devnull)
        try:
            tree = ast.parse(src, name)
            auto_import(tree)
            codes = []
            last = None
            if tree.body and isinstance(tree.body[-1], ast.Expr):
                # Like Jupyter: a final expression is run in "single" mode, which prints its repr.
                last = ast.Interactive([tree.body.pop()])
            if tree.body:
                codes.append(compile(tree, name, "exec", flags, dont_inherit=True))
            if last is not None:
                codes.append(compile(last, name, "single", flags, dont_inherit=True))
            in_cell = True
            if pending:
                pending = False
                raise KeyboardInterrupt
            signal.setitimer(signal.ITIMER_VIRTUAL, trace_cpu_budget)
            for code in codes:
                run_code(code)
            in_cell = False
            status = 0
        except SystemExit as e:
            in_cell = False
            if e.code is None:
                status = 0
            elif isinstance(e.code, int):
                status = e.code
            else:
                print(e.code, file=sys.stderr)
                status = 1
        except KeyboardInterrupt as e:
            in_cell = False
            print_exception(e)
            status = 130
        except BaseException as e:
            in_cell = False
            print_exception(e)
            status = 1
        finally:
            in_cell = False
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        if "matplotlib.pyplot" in sys.modules:
            try:
                emit_figures()
            except Exception as e:
                print_exception(e)
        return status

    driver_codes = {  # frames left out of tracebacks
        f.__code__ for f in (ask_input, read_answer, on_sigint, run_code, run_cell, show, emit_figures, emit_image, stop_tracing, displayhook)
    }
    builtins.input = ask_input
    sys.displayhook = displayhook
    sys.meta_path.insert(0, PyplotHook())
    signal.signal(signal.SIGINT, on_sigint)
    signal.signal(signal.SIGVTALRM, stop_tracing)
    while True:
        header = cmd.readline()
        if not header:
            os._exit(0)  # the parent is gone
        if header.startswith(b"A"):  # an answer to an input() that was interrupted: drop it
            n = int(header[1:])
            if n > 0:
                cmd.read(n)
            continue
        busy = True
        src = cmd.read(int(header)).decode("utf-8", "surrogateescape")
        try:
            status = run_cell(src)
        except KeyboardInterrupt:
            status = 130
        if os.getpid() != my_pid:
            os._exit(0)  # a fork made by the code came back here: it must not answer
        busy = pending = False
        send(b"D%d\n" % status)


_oi_main()
