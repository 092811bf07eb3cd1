// Placeholder until the HTML extraction lands (owned by the html work).
#include "common/cli.hpp"
#include "subcommands.hpp"
int langsift::cli::cmd_text(int, char**) { return langsift::cli::fail("langsift text", "not built yet"); }
