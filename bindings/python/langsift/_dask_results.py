"""langsift.dask's results: what a task did with one input (ShardResult), what the job did
(Report), and the exit statuses they map to (those of ``langsift warc``)."""

from __future__ import annotations

import dataclasses
from typing import Any, Dict, List, Optional, Tuple

import langsift

#: Exit statuses, as `langsift warc` has them.
EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE, EXIT_MALFORMED = 0, 1, 2, 3

#: The problems (malformed input) of one input kept in its ShardResult, report.json and on stderr:
#: the first ones; the others are counted (ShardResult.malformed_count).
MAX_PROBLEMS = 100


# ------------------------------------------------------------------------------------------------
# Results


@dataclasses.dataclass(frozen=True)
class ShardResult:
    """What one task did with one input (made on the worker, sent back to the client).

    `output` is the JSONL file written (an absolute path), None when nothing was written because
    the input could not be read (`error` says why), and None with split_languages: then `outputs`
    lists the files written, (language, path, lines) sorted by language, one per language that
    has lines (none for an input without any). `lines` counts the lines written, `filtered` the
    pages left out by `languages` / `min_probability`. `malformed` lists (offset, message) for input
    that was not a well-formed record, exactly what ``langsift warc`` reports on stderr for it: the
    first MAX_PROBLEMS (100) of them; `malformed_count` counts them all. `stats_tsv` is the input's
    ``langsift warc --stats`` table. `worker` and `pid` name the worker (and process) of the
    attempt whose result this is. `input` is the input as given; a name that is not UTF-8 is a str
    with surrogate escapes (``os.fsencode(input)`` gives its bytes back).
    """

    input: str
    output: Optional[str] = None
    lines: int = 0
    records: int = 0
    pages: int = 0
    input_bytes: int = 0
    filtered: int = 0
    outputs: Tuple[Tuple[str, str, int], ...] = ()
    malformed: Tuple[Tuple[int, str], ...] = ()
    malformed_count: int = 0
    error: Optional[str] = None
    stats_tsv: str = ""
    worker: str = ""
    pid: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.malformed_count < len(self.malformed):  # made without a count: the list is all
            object.__setattr__(self, "malformed_count", len(self.malformed))

    @property
    def ok(self) -> bool:
        """True when the input was read to its end (it may still have had malformed parts)."""
        return self.error is None

    @property
    def stats(self) -> "langsift.WarcStats":
        """The input's statistics (empty when it could not be read)."""
        return langsift.WarcStats.from_tsv(self.stats_tsv) if self.stats_tsv else langsift.WarcStats()

    def messages(self) -> List[str]:
        """One line per problem: ``INPUT: offset N: what`` (malformed) or ``INPUT: what``
        (unreadable); after the first MAX_PROBLEMS, one ``INPUT: ... and M more problems (N in all)``."""
        lines = [f"{self.input}: offset {off}: {msg}" for off, msg in self.malformed]
        if self.malformed_count > len(self.malformed):
            lines.append(f"{self.input}: ... and {self.malformed_count - len(self.malformed)} more problems "
                         f"({self.malformed_count} in all)")
        if self.error is not None:
            lines.append(f"{self.input}: {self.error}")
        return lines

    def to_dict(self) -> Dict[str, Any]:
        """The fields as JSON-ready values (report.json's entries), without the statistics table."""
        d = dataclasses.asdict(self)
        d.pop("stats_tsv")
        d["malformed"] = [[off, msg] for off, msg in self.malformed]
        d["outputs"] = [[lang, path, n] for lang, path, n in self.outputs]
        d["seconds"] = round(self.seconds, 3)
        return d


@dataclasses.dataclass
class Report:
    """The outcome of :func:`process_archives`: one ShardResult per input (in input order), the
    merged statistics, where they were written, the temporary files of interrupted attempts that
    were removed (per input), and how many files of an earlier run were removed (overwrite=True)."""

    shards: List[ShardResult]
    stats: "langsift.WarcStats"
    output_dir: str
    stats_path: str
    report_path: str
    removed_partial: Dict[str, int] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0
    workers: int = 0
    removed_earlier: int = 0

    @property
    def exit_status(self) -> int:
        """1 when an input could not be read, else 3 when some input was malformed, else 0
        (the exit statuses of ``langsift warc``)."""
        if any(s.error is not None for s in self.shards):
            return EXIT_UNREADABLE
        if any(s.malformed_count for s in self.shards):
            return EXIT_MALFORMED
        return EXIT_OK

    @property
    def failed(self) -> List[ShardResult]:
        """The inputs that could not be read (no output written)."""
        return [s for s in self.shards if s.error is not None]

    @property
    def malformed(self) -> List[ShardResult]:
        """The inputs that were read but had malformed parts."""
        return [s for s in self.shards if s.malformed_count]

    def messages(self) -> List[str]:
        """Every problem as one line (``INPUT: offset N: what`` / ``INPUT: what``), in input order."""
        return [m for s in self.shards for m in s.messages()]

    def to_dict(self) -> Dict[str, Any]:
        """report.json: the inputs (with their outputs and problems), totals and the exit status."""
        return {
            "exit_status": self.exit_status,
            "inputs": [dict(s.to_dict(), removed_partial=self.removed_partial.get(s.input, 0)) for s in self.shards],
            "stats": self.stats_path,
            "records": self.stats.records,
            "pages": self.stats.pages,
            "filtered": self.stats.filtered,
            "malformed": self.stats.malformed,
            "unreadable": len(self.failed),
            "seconds": round(self.seconds, 3),
            "workers": self.workers,
            "removed_earlier": self.removed_earlier,
        }
