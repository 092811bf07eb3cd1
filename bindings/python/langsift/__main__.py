"""`python3 -m langsift ...`: the `langsift` command, the same C++ code as the executable.

    python3 -m langsift detect --lines corpus.txt.zst
    python3 -m langsift detect --jsonl --text-field body -j 2 docs.jsonl.gz
    python3 -m langsift warc --stats crawl.warc.gz

The commands (detect, encoding, text, url, warc), their options, output and exit statuses are
those of `langsift` (`python3 -m langsift --help`; docs in the README): the C++ tool is linked
into the extension (`langsift._langsift._cli_main`) and runs on this process's standard input,
output and error. A pip install also makes it the `langsift` command of the environment.
"""

from __future__ import annotations

import sys
from typing import List, Optional

from ._langsift import _cli_main


def main(argv: Optional[List[str]] = None) -> int:
    """Runs `langsift` with `argv` (default: sys.argv[1:]) and returns its exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    return _cli_main(["langsift", *args])


if __name__ == "__main__":
    sys.exit(main())
