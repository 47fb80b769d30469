# oi-local installer for Windows (PowerShell 5.1 or 7). Safe to run again: it only does what is missing.
#
#   irm https://<where this file is published>/install.ps1 | iex
#
# 1. finds Python >= 3.10 (the `py` launcher or python.exe) and makes a venv (default %USERPROFILE%\.oi-local\venv);
# 2. installs llama-cpp-python for this machine: CUDA when an NVIDIA GPU answers nvidia-smi, else a
#    portable CPU build (no native tuning, no AMX);
# 3. installs oi-local with its local extras;
# 4. puts interpreter.exe's folder on the user PATH;
# 5. fetches the default model (verified against its sha256).
#
# Settings (environment variables): OI_LOCAL_VENV, OI_LOCAL_SOURCE (a checkout folder or a pip
# requirement; default oi-local), OI_LOCAL_MODEL (catalog id or "none"), OI_LOCAL_ACCEL (cpu or cuda).
$ErrorActionPreference = "Stop"

function Say($msg) { Write-Host "==> $msg" -ForegroundColor Cyan }
function Die($msg) { Write-Host "Error: $msg" -ForegroundColor Red; exit 1 }

$Venv = if ($env:OI_LOCAL_VENV) { $env:OI_LOCAL_VENV } else { Join-Path $env:USERPROFILE ".oi-local\venv" }
$Source = if ($env:OI_LOCAL_SOURCE) { $env:OI_LOCAL_SOURCE } else { "oi-local" }
$Model = if ($env:OI_LOCAL_MODEL) { $env:OI_LOCAL_MODEL } else { "default" }

# -- 1. Python -----------------------------------------------------------------------------------
function Find-Python {
    $candidates = @(@("py", "-3.12"), @("py", "-3.11"), @("py", "-3.10"), @("py", "-3"), @("python"), @("python3"))
    foreach ($c in $candidates) {
        $exe = $c[0]
        if (-not (Get-Command $exe -ErrorAction SilentlyContinue)) { continue }
        $rest = @($c | Select-Object -Skip 1)
        & $exe @rest -c "import sys, venv; sys.exit(0 if sys.version_info >= (3, 10) else 1)" 2>$null
        if ($LASTEXITCODE -eq 0) { return ,$c }
    }
    return $null
}

$Py = Find-Python
if (-not $Py) { Die "Python 3.10 or newer is needed: install it from https://www.python.org/downloads/ (tick 'Add to PATH'), then run this again." }
$VPy = Join-Path $Venv "Scripts\python.exe"
if (Test-Path $VPy) {
    Say "Using the existing environment $Venv"
} else {
    Say "Creating a Python environment in $Venv"
    New-Item -ItemType Directory -Force -Path (Split-Path $Venv) | Out-Null
    $pyExe = $Py[0]; $pyArgs = @($Py | Select-Object -Skip 1)
    & $pyExe @pyArgs -m venv $Venv
    if ($LASTEXITCODE -ne 0) { Die "could not create $Venv" }
    & $VPy -m pip install -q --upgrade pip
}

# -- 2. llama-cpp-python ---------------------------------------------------------------------------
$Accel = $env:OI_LOCAL_ACCEL
if (-not $Accel) {
    $Accel = "cpu"
    if (Get-Command nvidia-smi -ErrorAction SilentlyContinue) {
        & nvidia-smi -L *> $null
        if ($LASTEXITCODE -eq 0) { $Accel = "cuda" }
    }
}
switch ($Accel) {
    "cuda" { $Cmake = "-DGGML_CUDA=on" }
    "cpu"  { $Cmake = "-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" }
    default { Die "OI_LOCAL_ACCEL must be cpu or cuda on Windows (not '$Accel')" }
}
$Mark = Join-Path $Venv ".oi-local-llama-build"
& $VPy -c "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('llama_cpp') else 1)" 2>$null
$have = ($LASTEXITCODE -eq 0) -and (Test-Path $Mark) -and ((Get-Content $Mark -Raw).Trim() -eq $Accel)
if ($have) {
    Say "llama-cpp-python ($Accel build) is already installed"
} else {
    Say "Installing llama-cpp-python for $Accel (CMAKE_ARGS=$Cmake); a first build needs Visual Studio Build Tools and takes a few minutes"
    $env:CMAKE_ARGS = $Cmake
    $env:FORCE_CMAKE = "1"
    $extra = @()
    if ($Accel -ne "cpu") { $extra = @("--no-cache-dir", "--force-reinstall") }  # never a cached CPU wheel for a GPU
    & $VPy -m pip install -q @extra "llama-cpp-python>=0.3.16"
    if ($LASTEXITCODE -ne 0) { Die "building llama-cpp-python failed: install 'Build Tools for Visual Studio' (C++ workload) and CMake, then run this again." }
    Set-Content -Path $Mark -Value $Accel
}

# -- 3. oi-local ---------------------------------------------------------------------------------
if (Test-Path $Source -PathType Container) { $Req = "$((Resolve-Path $Source).Path)[local]" } else { $Req = "$Source[local]" }
Say "Installing $Req"
& $VPy -m pip install -q $Req
if ($LASTEXITCODE -ne 0) { Die "pip could not install $Req" }

# -- 4. PATH ---------------------------------------------------------------------------------------
$Scripts = Join-Path $Venv "Scripts"
$userPath = [Environment]::GetEnvironmentVariable("Path", "User")
if (-not ($userPath -split ";" | Where-Object { $_ -eq $Scripts })) {
    [Environment]::SetEnvironmentVariable("Path", "$Scripts;$userPath", "User")
    Say "Added $Scripts to your PATH (open a new terminal to use it)"
}

# -- 5. the model ----------------------------------------------------------------------------------
if ($Model -ne "none") {
    Say "Fetching the model '$Model' (skipped if it is already there and complete)"
    & $VPy -m oi_local.local.manage download $Model
    if ($LASTEXITCODE -ne 0) { Die "the model could not be fetched; run 'interpreter --local' later to pick one" }
}
Say "Done. Run: interpreter --local"
