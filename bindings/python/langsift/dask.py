"""langsift.dask: the languages and encodings of WARC/WET shards, one Dask task per shard.

    >>> from langsift.dask import process_archives
    >>> report = process_archives(["crawl-00000.warc.gz", "s3://bucket/crawl-00001.warc.gz"],
    ...                           "out/", client="tcp://scheduler:8786")
    >>> report.exit_status, report.stats.pages
    (0, 51234)

or from a shell (``/usr/bin/python3`` on Debian, where python3-dask lives)::

    python3 -m langsift.dask --workers 2 -o out/ crawl-*.warc.gz
    python3 -m langsift.dask --scheduler tcp://scheduler:8786 -o out/ --inputs-from paths.txt

For every input, ``OUTDIR/<name>.jsonl`` holds exactly the lines ``langsift warc INPUT`` prints
(with ``--text``, ``--schema corpus``, ``--languages``, ``--min-probability``: those of ``langsift
warc`` with the same options; with ``--split-languages``, the lines of each language go to
``OUTDIR/<language>/<name>.jsonl``; ``--compression gz|zst`` adds ``.gz`` / ``.zst``);
``OUTDIR/stats.tsv`` (or ``stats_path``) holds the tables of ``langsift warc --stats`` over all the
inputs, and ``OUTDIR/report.json`` what happened to each input. The engine is Dask's
(``distributed``): its scheduler hands the inputs to the workers and, when a worker dies, gives the
dead worker's task to another one. What makes that safe is here:

- A task is a pure function of its input: it reads the whole input with
  :func:`langsift.read_warc`, writes its lines to a temporary file beside the final one
  (``.<name>.jsonl.<pid>.<random>.tmp``; one per language with split_languages), fsyncs it and
  renames it over the final name once the whole input is read. An attempt
  that dies leaves a temporary file, never a partial output; the attempt that succeeds writes the
  whole file again, so no line appears twice. The temporary files of dead attempts are removed
  when the job ends (and counted in the report).
- A task returns small data (its statistics as TSV, the malformed input's offsets and messages,
  counts): the statistics are merged on the client from the one result Dask delivers per input, so
  every input is counted once, whichever attempt produced it.
- Malformed input (a corrupt or cut shard) is reported per input, as ``langsift warc`` reports it on
  stderr (the first MAX_PROBLEMS of an input, and how many more), and reading goes on; an
  unreadable input is reported and the other inputs go on.
- One file is one input: the same file under two names (``x``, ``./x``, a symlink...) is refused.
  The output directory holds one run: one that is not empty is refused unless ``overwrite``, which
  first removes the job's own files there (and nothing else).
- Names are taken as the OS gives them (str with surrogateescape, bytes, os.PathLike); report.json
  writes the bytes of a name that is not UTF-8 as ``\\udcXX`` escapes (valid JSON).
- Stopped (KeyboardInterrupt; SIGINT or SIGTERM from the command line), the job stops the cluster
  it started and removes the tasks' temporary files.

Local paths must be readable by the workers under the same name (a shared file system on a real
cluster); anything else with ``://`` (``file://``, ``s3://``, ``hdfs://``, ``memory://``...) is
opened with fsspec on the worker. The output directory must be a file system the workers share
with the client (renames must be atomic there): S3 and the like are not supported as outputs.
See docs/dask.md.
"""

from __future__ import annotations

import sys

# The package's parts, one subject each; this module gathers the public names (and the private
# ones the tests reach).
from ._dask_cli import main
from ._dask_files import COMPRESSIONS, _LANGUAGE_DIR, _is_job_file, _language_dir, _write_atomic, output_names
from ._dask_job import OutputDirectoryNotEmpty, _prepare, process_archives
from ._dask_results import EXIT_MALFORMED, EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE, MAX_PROBLEMS, Report, ShardResult
from ._dask_shard import _model, process_shard

__all__ = [
    "MAX_PROBLEMS",
    "OutputDirectoryNotEmpty",
    "Report",
    "ShardResult",
    "main",
    "output_names",
    "process_archives",
    "process_shard",
]


if __name__ == "__main__":
    # Run as `python3 -m langsift.dask`. The tasks Dask sends to the workers are pickled by
    # reference to their own module (langsift._dask_shard.process_shard), which workers import.
    sys.exit(main())
