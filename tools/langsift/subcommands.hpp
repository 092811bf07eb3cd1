// Entry points of the `langsift` subcommands. Each gets argv with argv[0] = the subcommand name.
#pragma once

namespace langsift::cli {

int cmd_encoding(int argc, char** argv);  // encoding.cpp
int cmd_text(int argc, char** argv);      // text.cpp
int cmd_detect(int argc, char** argv);    // detect.cpp
int cmd_url(int argc, char** argv);       // url.cpp
int cmd_warc(int argc, char** argv);      // warc.cpp

}  // namespace langsift::cli
