#!/usr/bin/env bash
# oi-local installer for Linux and macOS. Safe to run again: it only does what is missing.
#
#   bash installers/install.sh                 # from a clone or an unpacked release archive
#   bash BUNDLE/install.sh --from BUNDLE       # from an offline bundle: no network at all
#   curl -fsSL <published URL>/install.sh | bash    # from the package index, once oi-local is published
#
# What it does:
#   1. finds Python >= 3.10 and makes a virtual environment (default ~/.oi-local/venv);
#   2. installs llama-cpp-python built for this machine: Metal on Apple Silicon, CUDA with an NVIDIA
#      GPU, ROCm with an AMD GPU, Vulkan where the Vulkan SDK is installed, else a portable CPU build
#      (no -march=native, no AMX: the native AMX path crashes on some Xeons and cloud VMs).
#      From a bundle: the prebuilt wheel it carries, nothing is compiled;
#   3. installs oi-local with the extras the README's features need: local (models), server
#      (--server), safe (semgrep for safe mode), plots (matplotlib);
#   4. puts `interpreter` in ~/.local/bin;
#   5. fetches the default model, verified against its sha256 (from a bundle: imports its models).
#
# Options (each also an environment variable):
#   --from DIR        install from an offline bundle (`interpreter --local_models bundle DIR`)   OI_LOCAL_FROM
#   --prefix DIR      put the venv in DIR/venv and the command in DIR/bin                         OI_LOCAL_PREFIX
#   --source SRC      what to install: a source folder, a .whl/.tar.gz, or a pip requirement      OI_LOCAL_SOURCE
#   --extras LIST     oi-local extras (default local,server,safe,plots; "local" is the minimum)  OI_LOCAL_EXTRAS
#   --model ID|none   catalog id of the model to fetch (default: the catalog default)            OI_LOCAL_MODEL
#   --accel KIND      llama.cpp build: cpu, cuda, metal, rocm or vulkan (default: detected)       OI_LOCAL_ACCEL
#   --dry-run         print what would be done, change nothing
#   OI_LOCAL_VENV, OI_LOCAL_BIN: the venv and the command's folder one by one; PYTHON: the Python to use.
set -euo pipefail

say() { printf '\033[1m==>\033[0m %s\n' "$*"; }
die() { printf 'Error: %s\n' "$*" >&2; exit 1; }

FROM=${OI_LOCAL_FROM:-}
PREFIX=${OI_LOCAL_PREFIX:-}
SOURCE=${OI_LOCAL_SOURCE:-}
EXTRAS=${OI_LOCAL_EXTRAS:-}
MODEL=${OI_LOCAL_MODEL:-}
ACCEL_OPT=${OI_LOCAL_ACCEL:-}
DRY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --from) FROM=${2:?--from needs a folder}; shift 2 ;;
    --prefix) PREFIX=${2:?--prefix needs a folder}; shift 2 ;;
    --source) SOURCE=${2:?--source needs a value}; shift 2 ;;
    --extras) EXTRAS=${2:?--extras needs a list}; shift 2 ;;
    --model) MODEL=${2:?--model needs a catalog id or none}; shift 2 ;;
    --accel) ACCEL_OPT=${2:?--accel needs a kind}; shift 2 ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

# Where this script lives: a source tree (installers/ beside pyproject.toml) or a bundle (bundle.json beside it).
HERE=""
if [ -n "${BASH_SOURCE[0]:-}" ] && [ -f "${BASH_SOURCE[0]}" ]; then HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd); fi
if [ -z "$FROM" ] && [ -z "$SOURCE" ] && [ -n "$HERE" ] && [ -f "$HERE/bundle.json" ]; then FROM=$HERE; fi
if [ -z "$SOURCE" ] && [ -n "$HERE" ] && grep -qs '^name = "oi-local"' "$HERE/../pyproject.toml"; then
  SOURCE=$(cd "$HERE/.." && pwd)
fi
SOURCE=${SOURCE:-oi-local}
EXTRAS=${EXTRAS:-local,server,safe,plots}
if [ -n "$PREFIX" ]; then
  VENV=${OI_LOCAL_VENV:-$PREFIX/venv}; BIN=${OI_LOCAL_BIN:-$PREFIX/bin}
else
  VENV=${OI_LOCAL_VENV:-$HOME/.oi-local/venv}; BIN=${OI_LOCAL_BIN:-$HOME/.local/bin}
fi

# run CMD...: does it, or with --dry-run only shows it.
run() {
  if [ "$DRY" = 1 ]; then printf '  would run: %s\n' "$*"; else "$@"; fi
}
# Downloads only: a dropped connection fails pip after its own retries (seen in CI); pip keeps
# nothing half-done, so the same command once more, a little later, is safe and usually enough.
run_again() {
  run "$@" && return 0
  [ "$DRY" = 1 ] && return 0
  say "pip failed; trying once more in 5 s (a dropped connection is the usual cause)"
  sleep 5
  "$@"
}

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

if [ -n "$FROM" ]; then
  [ -d "$FROM" ] || die "--from $FROM: no such folder"
  FROM=$(cd "$FROM" && pwd)
  [ -f "$FROM/check_bundle.py" ] || die "$FROM is not an oi-local bundle (no check_bundle.py); make one with 'interpreter --local_models bundle DIR'"
  say "Checking the bundle in $FROM (every file's sha256, and that it was made for this machine)"
  "$PY" "$FROM/check_bundle.py" "$FROM" || exit 2
  # A bundle for another Python is refused above, so the venv's Python must be that same one.
  EXTRAS=$("$PY" -c 'import json, sys; print(",".join(json.load(open(sys.argv[1]))["extras"]))' "$FROM/bundle.json")
fi

if [ "$DRY" = 1 ]; then say "Dry run: nothing is changed. Python: $PY; venv: $VENV; command: $BIN/interpreter"; fi
if [ -x "$VENV/bin/python" ]; then
  say "Using the existing environment $VENV"
else
  say "Creating a Python environment in $VENV (with $PY)"
  run mkdir -p "$(dirname "$VENV")"
  run "$PY" -m venv "$VENV" || die "could not create $VENV (on Debian/Ubuntu: sudo apt install python3-venv)"
  if [ -z "$FROM" ]; then run_again "$VENV/bin/python" -m pip install -q --upgrade pip; fi
fi
VPY="$VENV/bin/python"
# bubblewrap: the sandbox model-written code runs in (without it, code runs unconfined and oi-local says so).
if [ "$(uname -s)" = "Linux" ] && ! command -v bwrap >/dev/null 2>&1; then
  say "For the code sandbox, install bubblewrap (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap)"
fi
MARK="$VENV/.oi-local-llama-build"
PIPQ=(-m pip install -q --disable-pip-version-check)

if [ -n "$FROM" ]; then
  # -- 2+3 from the bundle: everything from its wheel folder, nothing from the network ----------
  say "Installing oi-local[$EXTRAS] from the bundle's wheels (no network)"
  run "$VPY" "${PIPQ[@]}" --no-index --find-links "$FROM/wheels" "oi-local[$EXTRAS]" ||
    die "pip could not install from $FROM/wheels (see above)"
  if [ "$DRY" = 0 ]; then
    "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["llama_cpp_python"]["build"])' "$FROM/bundle.json" > "$MARK"
    say "llama-cpp-python: $(cat "$MARK")"
  fi
else
  # -- 2. llama-cpp-python for this hardware ---------------------------------------------------
  detect_accel() {
    if [ -n "$ACCEL_OPT" ]; then echo "$ACCEL_OPT"; return; fi
    if [ "$(uname -s)" = "Darwin" ] && [ "$(uname -m)" = "arm64" ]; then echo metal; return; fi
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then echo cuda; return; fi
    if command -v rocm-smi >/dev/null 2>&1 && rocm-smi >/dev/null 2>&1; then echo rocm; return; fi
    # Vulkan builds need the SDK's shader compiler as well as a device.
    if command -v vulkaninfo >/dev/null 2>&1 && command -v glslc >/dev/null 2>&1 &&
       vulkaninfo --summary 2>/dev/null | grep -q 'PHYSICAL_DEVICE_TYPE_\(DISCRETE\|INTEGRATED\)_GPU'; then echo vulkan; return; fi
    echo cpu
  }
  ACCEL=$(detect_accel)
  case "$ACCEL" in
    metal)  CMAKE="-DGGML_METAL=on" ;;
    cuda)   CMAKE="-DGGML_CUDA=on" ;;
    rocm)   CMAKE="-DGGML_HIP=on" ;;
    vulkan) CMAKE="-DGGML_VULKAN=on" ;;
    cpu)    CMAKE="-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" ;;
    *) die "--accel must be cpu, cuda, metal, rocm or vulkan (not '$ACCEL')" ;;
  esac
  if [ -x "$VPY" ] && "$VPY" -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("llama_cpp") else 1)' 2>/dev/null &&
     [ "$(cat "$MARK" 2>/dev/null)" = "$ACCEL" ]; then
    say "llama-cpp-python ($ACCEL build) is already installed"
  else
    say "Installing llama-cpp-python for $ACCEL (CMAKE_ARGS=$CMAKE); a first build from source takes a few minutes"
    # pip reuses a cached wheel whatever CMAKE_ARGS say; a GPU build must not get a cached CPU one.
    EXTRA=()
    if [ "$ACCEL" != cpu ]; then EXTRA=(--no-cache-dir --force-reinstall); fi
    CMAKE_ARGS="$CMAKE" FORCE_CMAKE=1 run "$VPY" "${PIPQ[@]}" ${EXTRA[@]+"${EXTRA[@]}"} "llama-cpp-python>=0.3.16" ||
      die "building llama-cpp-python failed. It needs a C/C++ compiler and CMake (Debian/Ubuntu: sudo apt install build-essential cmake; macOS: xcode-select --install)."
    if [ "$DRY" = 0 ]; then echo "$ACCEL" > "$MARK"; fi
    say "Built for $ACCEL. To rebuild for other hardware: $0 --accel cpu|cuda|metal|rocm|vulkan"
  fi

  # -- 3. oi-local -------------------------------------------------------------------------------
  case "$SOURCE" in
    *.whl|*.tar.gz|*.zip) [ -f "$SOURCE" ] && SOURCE=$(cd "$(dirname "$SOURCE")" && pwd)/$(basename "$SOURCE") ;;
    *) if [ -d "$SOURCE" ]; then SOURCE=$(cd "$SOURCE" && pwd); fi ;;
  esac
  if [ -e "$SOURCE" ]; then REQ="oi-local[$EXTRAS] @ file://$SOURCE"; else REQ="$SOURCE[$EXTRAS]"; fi
  say "Installing $REQ"
  run_again "$VPY" "${PIPQ[@]}" "$REQ" ||
    die "pip could not install $REQ$([ -e "$SOURCE" ] || echo " (oi-local is not on the package index yet? run this script from a clone or a release archive)")"
fi

# -- 4. the command --------------------------------------------------------------------------------
run mkdir -p "$BIN"
run ln -sf "$VENV/bin/interpreter" "$BIN/interpreter"
say "Linked $BIN/interpreter"

# -- 5. models -------------------------------------------------------------------------------------
if [ -n "$FROM" ]; then
  for f in "$FROM"/models/*.gguf; do
    [ -e "$f" ] || continue
    if [ "$DRY" = 0 ] && [ -f "$("$VPY" -m oi_local.local.manage path)/$(basename "$f")" ]; then
      say "Model $(basename "$f") is already installed"; continue
    fi
    say "Importing the model $(basename "$f") (checks that it loads)"
    run "$VPY" -m oi_local.local.manage import "$f" || die "could not import $f"
  done
  for f in "$FROM"/projectors/*.gguf; do  # vision models' image projectors (checked with the bundle above)
    [ -e "$f" ] || continue
    say "Copying the image projector $(basename "$f")"
    if [ "$DRY" = 0 ]; then cp "$f" "$("$VPY" -m oi_local.local.manage path)/" || die "could not copy $f"; fi
  done
elif [ "${MODEL:-default}" != "none" ]; then
  say "Fetching the model '${MODEL:-default}' (skipped if it is already there and complete)"
  run "$VPY" -m oi_local.local.manage download "${MODEL:-default}" ||
    die "the model could not be fetched; run '$BIN/interpreter --local' later to pick one"
fi

if [ "$DRY" = 1 ]; then say "Dry run done: nothing was changed."; exit 0; fi
case ":$PATH:" in
  *":$BIN:"*) say "Done. Run: interpreter --local" ;;
  *) say "Done. $BIN is not on your PATH: add 'export PATH=\"$BIN:\$PATH\"' to your shell profile, then run: interpreter --local" ;;
esac
