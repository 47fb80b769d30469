#!/usr/bin/env bash
# oi-local installer for Linux and macOS. Safe to run again: it only does what is missing.
#
#   curl -fsSL https://<where this file is published>/install.sh | bash
#
# What it does:
#   1. finds Python >= 3.10 and makes a virtual environment (default ~/.oi-local/venv);
#   2. builds llama-cpp-python for this machine: Metal on Apple Silicon, CUDA with an NVIDIA GPU,
#      ROCm with an AMD GPU, else a portable CPU build (no -march=native, no AMX: the native AMX
#      path crashes on some Xeons and cloud VMs);
#   3. installs oi-local with its local extras;
#   4. puts `interpreter` in ~/.local/bin;
#   5. fetches the default model (verified against its sha256).
#
# Settings (environment variables):
#   OI_LOCAL_VENV    where the venv goes                      (default: ~/.oi-local/venv)
#   OI_LOCAL_SOURCE  what to install: a checkout folder or a pip requirement (default: oi-local)
#   OI_LOCAL_BIN     where to link the `interpreter` command  (default: ~/.local/bin)
#   OI_LOCAL_MODEL   catalog id of the model to fetch, or "none" (default: the catalog default)
#   OI_LOCAL_ACCEL   force the llama.cpp build: cpu, cuda, metal or rocm (default: detected)
#   PYTHON           the Python to use                         (default: python3.12..python3.10, python3)
set -euo pipefail

VENV=${OI_LOCAL_VENV:-$HOME/.oi-local/venv}
SOURCE=${OI_LOCAL_SOURCE:-oi-local}
BIN=${OI_LOCAL_BIN:-$HOME/.local/bin}
MODEL=${OI_LOCAL_MODEL:-default}

say() { printf '\033[1m==>\033[0m %s\n' "$*"; }
die() { printf 'Error: %s\n' "$*" >&2; exit 1; }

# -- 1. Python ---------------------------------------------------------------------------------
find_python() {
  local c
  for c in ${PYTHON:-} python3.13 python3.12 python3.11 python3.10 python3; do
    if command -v "$c" >/dev/null 2>&1 &&
       "$c" -c 'import sys, venv; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
      command -v "$c"; return 0
    fi
  done
  return 1
}
PY=$(find_python) || die "Python 3.10 or newer (with venv) is needed. Install it (e.g. 'sudo apt install python3 python3-venv' or 'brew install python') and run this again."

if [ -x "$VENV/bin/python" ]; then
  say "Using the existing environment $VENV"
else
  say "Creating a Python environment in $VENV (with $PY)"
  mkdir -p "$(dirname "$VENV")"
  "$PY" -m venv "$VENV" || die "could not create $VENV (on Debian/Ubuntu: sudo apt install python3-venv)"
  "$VENV/bin/python" -m pip install -q --upgrade pip
fi
VPY="$VENV/bin/python"

# -- 2. llama-cpp-python for this hardware -------------------------------------------------------
detect_accel() {
  if [ -n "${OI_LOCAL_ACCEL:-}" ]; then echo "$OI_LOCAL_ACCEL"; return; fi
  if [ "$(uname -s)" = "Darwin" ] && [ "$(uname -m)" = "arm64" ]; then echo metal; return; fi
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then echo cuda; return; fi
  if command -v rocm-smi >/dev/null 2>&1 && rocm-smi >/dev/null 2>&1; then echo rocm; return; fi
  echo cpu
}
ACCEL=$(detect_accel)
case "$ACCEL" in
  metal) CMAKE="-DGGML_METAL=on" ;;
  cuda)  CMAKE="-DGGML_CUDA=on" ;;
  rocm)  CMAKE="-DGGML_HIP=on" ;;
  cpu)   CMAKE="-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" ;;
  *) die "OI_LOCAL_ACCEL must be cpu, cuda, metal or rocm (not '$ACCEL')" ;;
esac
MARK="$VENV/.oi-local-llama-build"
if "$VPY" -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("llama_cpp") else 1)' 2>/dev/null &&
   [ "$(cat "$MARK" 2>/dev/null)" = "$ACCEL" ]; then
  say "llama-cpp-python ($ACCEL build) is already installed"
else
  say "Installing llama-cpp-python for $ACCEL (CMAKE_ARGS=$CMAKE); a first build from source takes a few minutes"
  # pip reuses a cached wheel whatever CMAKE_ARGS say; a GPU build must not get a cached CPU one.
  EXTRA=""
  if [ "$ACCEL" != cpu ]; then EXTRA="--no-cache-dir --force-reinstall"; fi
  # shellcheck disable=SC2086 # EXTRA is a list of flags
  CMAKE_ARGS="$CMAKE" FORCE_CMAKE=1 "$VPY" -m pip install -q $EXTRA "llama-cpp-python>=0.3.16" ||
    die "building llama-cpp-python failed. It needs a C/C++ compiler and CMake (Debian/Ubuntu: sudo apt install build-essential cmake; macOS: xcode-select --install)."
  echo "$ACCEL" > "$MARK"
fi

# -- 3. oi-local ---------------------------------------------------------------------------------
if [ -d "$SOURCE" ]; then
  REQ="$(cd "$SOURCE" && pwd)[local]"
else
  REQ="$SOURCE[local]"
fi
say "Installing $REQ"
"$VPY" -m pip install -q "$REQ" || die "pip could not install $REQ"

# -- 4. the command --------------------------------------------------------------------------------
mkdir -p "$BIN"
ln -sf "$VENV/bin/interpreter" "$BIN/interpreter"
say "Linked $BIN/interpreter"

# -- 5. the default model --------------------------------------------------------------------------
if [ "$MODEL" != "none" ]; then
  say "Fetching the model '$MODEL' (skipped if it is already there and complete)"
  "$VPY" -m oi_local.local.manage download "$MODEL" ||
    die "the model could not be fetched; run '$BIN/interpreter --local' later to pick one"
fi

case ":$PATH:" in
  *":$BIN:"*) say "Done. Run: interpreter --local" ;;
  *) say "Done. $BIN is not on your PATH: add 'export PATH=\"$BIN:\$PATH\"' to your shell profile, then run: interpreter --local" ;;
esac
