// Entry points of the `langsift` subcommands. Each gets argv with argv[0] = the subcommand name.
#pragma once

namespace langsift::cli {

int cmd_encoding(int argc, char** argv);  // encoding.cpp
int cmd_text(int argc, char** argv);      // text.cpp
int cmd_detect(int argc, char** argv);    // detect.cpp
int cmd_url(int argc, char** argv);       // url.cpp
int cmd_warc(int argc, char** argv);      // warc.cpp

/// `langsift ARGS...` (argv[0]: the program, argv[1]: the subcommand), through cli::run: the exit
/// status. `embedded`: inside a host process (the Python package), whose stdout stays open: it
/// is flushed (a write error still reported, status 1), not closed.
int langsift_main(int argc, char** argv, bool embedded = false);  // dispatch.cpp

}  // namespace langsift::cli
