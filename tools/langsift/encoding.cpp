// Placeholder until encoding detection lands (owned by the encoding work).
#include "common/cli.hpp"
#include "subcommands.hpp"
int langsift::cli::cmd_encoding(int, char**) { return langsift::cli::fail("langsift encoding", "not built yet"); }
