# oi-local installer for Windows (PowerShell 5.1 or 7). Safe to run again: it only does what is missing.
#
#   .\installers\install.ps1                         # from a clone or an unpacked release archive
#   .\BUNDLE\install.ps1 -From BUNDLE                # from an offline bundle: no network at all
#   irm <published URL>/install.ps1 | iex            # from the package index, once oi-local is published
#
# 1. finds Python >= 3.10 (the `py` launcher or python.exe) and makes a venv (default %USERPROFILE%\.oi-local\venv);
# 2. installs llama-cpp-python for this machine: CUDA when an NVIDIA GPU answers nvidia-smi, Vulkan
#    when the Vulkan SDK is installed, else a portable CPU build (no native tuning, no AMX). From a
#    bundle: its prebuilt wheel;
# 3. installs oi-local with the extras the README's features need (local, server, safe, plots);
# 4. puts interpreter.exe's folder on the user PATH;
# 5. fetches the default model (verified against its sha256); from a bundle, imports its models.
#
# Options: -From DIR, -Prefix DIR, -Source SRC, -Extras LIST, -Model ID|none, -Accel cpu|cuda|vulkan,
# -DryRun. Each also as an environment variable: OI_LOCAL_FROM, OI_LOCAL_PREFIX, OI_LOCAL_SOURCE,
# OI_LOCAL_EXTRAS, OI_LOCAL_MODEL, OI_LOCAL_ACCEL (and OI_LOCAL_VENV).
#
# Errors never call `exit`: run through `irm | iex` that would close the user's PowerShell window.
# The work is one function; a failure throws, and the last lines print it and stop.

function Install-OiLocal {
    param([string[]]$Arguments)
    $ErrorActionPreference = "Stop"
    function Say($msg) { Write-Host "==> $msg" -ForegroundColor Cyan }
    function Die($msg) { throw "oi-local install: $msg" }

    $From = $env:OI_LOCAL_FROM; $Prefix = $env:OI_LOCAL_PREFIX; $Source = $env:OI_LOCAL_SOURCE
    $Extras = $env:OI_LOCAL_EXTRAS; $Model = $env:OI_LOCAL_MODEL; $Accel = $env:OI_LOCAL_ACCEL; $Dry = $false
    for ($i = 0; $i -lt $Arguments.Count; $i++) {
        switch ($Arguments[$i]) {
            "-From"   { $From = $Arguments[++$i] }
            "-Prefix" { $Prefix = $Arguments[++$i] }
            "-Source" { $Source = $Arguments[++$i] }
            "-Extras" { $Extras = $Arguments[++$i] }
            "-Model"  { $Model = $Arguments[++$i] }
            "-Accel"  { $Accel = $Arguments[++$i] }
            "-DryRun" { $Dry = $true }
            default   { Die "unknown option '$($Arguments[$i])'" }
        }
    }
    # Where this script lives: a source tree or a bundle (empty when run through iex).
    $Here = if ($PSCommandPath) { Split-Path -Parent $PSCommandPath } else { "" }
    if (-not $From -and -not $Source -and $Here -and (Test-Path (Join-Path $Here "bundle.json"))) { $From = $Here }
    if (-not $Source -and $Here -and (Test-Path (Join-Path $Here "..\pyproject.toml"))) {
        if (Select-String -Path (Join-Path $Here "..\pyproject.toml") -Pattern '^name = "oi-local"' -Quiet) {
            $Source = (Resolve-Path (Join-Path $Here "..")).Path
        }
    }
    if (-not $Source) { $Source = "oi-local" }
    if (-not $Extras) { $Extras = "local,server,safe,plots" }
    if (-not $Model) { $Model = "default" }
    $Venv = if ($env:OI_LOCAL_VENV) { $env:OI_LOCAL_VENV } elseif ($Prefix) { Join-Path $Prefix "venv" } else { Join-Path $env:USERPROFILE ".oi-local\venv" }

    function Run {
        param([string]$Exe, [string[]]$Rest)
        if ($Dry) { Write-Host "  would run: $Exe $($Rest -join ' ')"; return }
        & $Exe @Rest
        if ($LASTEXITCODE -ne 0) { Die "'$Exe $($Rest -join ' ')' failed (exit code $LASTEXITCODE)" }
    }

    # -- 1. Python -------------------------------------------------------------------------------
    $Py = $null
    foreach ($c in @(@("py", "-3.13"), @("py", "-3.12"), @("py", "-3.11"), @("py", "-3.10"), @("python"), @("python3"))) {
        if (-not (Get-Command $c[0] -ErrorAction SilentlyContinue)) { continue }
        $rest = @($c | Select-Object -Skip 1)
        & $c[0] @rest -c "import sys, venv; sys.exit(0 if sys.version_info >= (3, 10) else 1)" 2>$null
        if ($LASTEXITCODE -eq 0) { $Py = $c; break }
    }
    if (-not $Py) { Die "Python 3.10 or newer is needed: install it from https://www.python.org/downloads/ (tick 'Add to PATH'), then run this again." }
    $PyExe = $Py[0]; $PyArgs = @($Py | Select-Object -Skip 1)

    if ($From) {
        if (-not (Test-Path $From -PathType Container)) { Die "-From ${From}: no such folder" }
        $From = (Resolve-Path $From).Path
        if (-not (Test-Path (Join-Path $From "check_bundle.py"))) { Die "$From is not an oi-local bundle; make one with 'interpreter --local_models bundle DIR'" }
        Say "Checking the bundle in $From (every file's sha256, and that it was made for this machine)"
        & $PyExe @PyArgs (Join-Path $From "check_bundle.py") $From
        if ($LASTEXITCODE -ne 0) { Die "the bundle cannot be used here (see the line above)" }
        $manifest = Get-Content (Join-Path $From "bundle.json") -Raw | ConvertFrom-Json
        $Extras = ($manifest.extras -join ",")
    }

    $VPy = Join-Path $Venv "Scripts\python.exe"
    if (Test-Path $VPy) {
        Say "Using the existing environment $Venv"
    } else {
        Say "Creating a Python environment in $Venv"
        if (-not $Dry) { New-Item -ItemType Directory -Force -Path (Split-Path $Venv) | Out-Null }
        Run $PyExe ($PyArgs + @("-m", "venv", $Venv))
        if (-not $From) { Run $VPy @("-m", "pip", "install", "-q", "--upgrade", "pip") }
    }
    $Mark = Join-Path $Venv ".oi-local-llama-build"

    if ($From) {
        Say "Installing oi-local[$Extras] from the bundle's wheels (no network)"
        Run $VPy @("-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-index", "--find-links", (Join-Path $From "wheels"), "oi-local[$Extras]")
        if (-not $Dry) { Set-Content -Path $Mark -Value $manifest.llama_cpp_python.build }
    } else {
        # -- 2. llama-cpp-python -----------------------------------------------------------------
        if (-not $Accel) {
            $Accel = "cpu"
            if (Get-Command nvidia-smi -ErrorAction SilentlyContinue) {
                & nvidia-smi -L *> $null
                if ($LASTEXITCODE -eq 0) { $Accel = "cuda" }
            }
            if ($Accel -eq "cpu" -and (Get-Command vulkaninfo -ErrorAction SilentlyContinue) -and (Get-Command glslc -ErrorAction SilentlyContinue)) {
                $Accel = "vulkan"
            }
        }
        switch ($Accel) {
            "cuda"   { $Cmake = "-DGGML_CUDA=on" }
            "vulkan" { $Cmake = "-DGGML_VULKAN=on" }
            "cpu"    { $Cmake = "-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" }
            default  { Die "-Accel must be cpu, cuda or vulkan on Windows (not '$Accel')" }
        }
        $have = $false
        if (Test-Path $VPy) {
            & $VPy -c "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('llama_cpp') else 1)" 2>$null
            $have = ($LASTEXITCODE -eq 0) -and (Test-Path $Mark) -and ((Get-Content $Mark -Raw).Trim() -eq $Accel)
        }
        if ($have) {
            Say "llama-cpp-python ($Accel build) is already installed"
        } else {
            Say "Installing llama-cpp-python for $Accel (CMAKE_ARGS=$Cmake); a first build needs Visual Studio Build Tools and takes a few minutes"
            $env:CMAKE_ARGS = $Cmake
            $env:FORCE_CMAKE = "1"
            $extra = @()
            if ($Accel -ne "cpu") { $extra = @("--no-cache-dir", "--force-reinstall") }  # never a cached CPU wheel for a GPU
            Run $VPy (@("-m", "pip", "install", "-q") + $extra + @("llama-cpp-python>=0.3.16"))
            if (-not $Dry) { Set-Content -Path $Mark -Value $Accel }
            Say "Built for $Accel. To rebuild for other hardware, run this again with -Accel cpu|cuda|vulkan"
        }
        # -- 3. oi-local ---------------------------------------------------------------------------
        if (Test-Path $Source) { $Req = "oi-local[$Extras] @ file:///$(((Resolve-Path $Source).Path) -replace '\\', '/')" } else { $Req = "$Source[$Extras]" }
        Say "Installing $Req"
        Run $VPy @("-m", "pip", "install", "-q", $Req)
    }

    # -- 4. PATH -----------------------------------------------------------------------------------
    $Scripts = Join-Path $Venv "Scripts"
    $userPath = [Environment]::GetEnvironmentVariable("Path", "User")
    if (-not ($userPath -split ";" | Where-Object { $_ -eq $Scripts })) {
        if (-not $Dry) { [Environment]::SetEnvironmentVariable("Path", "$Scripts;$userPath", "User") }
        Say "Added $Scripts to your PATH (open a new terminal to use it)"
    }

    # -- 5. models ---------------------------------------------------------------------------------
    if ($From) {
        foreach ($f in Get-ChildItem -Path (Join-Path $From "models") -Filter *.gguf -ErrorAction SilentlyContinue) {
            Say "Importing the model $($f.Name) (checks that it loads)"
            Run $VPy @("-m", "oi_local.local.manage", "import", $f.FullName)
        }
    } elseif ($Model -ne "none") {
        Say "Fetching the model '$Model' (skipped if it is already there and complete)"
        Run $VPy @("-m", "oi_local.local.manage", "download", $Model)
    }
    if ($Dry) { Say "Dry run done: nothing was changed." } else { Say "Done. Run: interpreter --local" }
}

try {
    Install-OiLocal -Arguments $args
} catch {
    Write-Host "Error: $($_.Exception.Message)" -ForegroundColor Red
    $global:LASTEXITCODE = 1
    if ($PSCommandPath) { throw }  # run as a script file: a failing exit status for callers; under iex, the window stays
}
