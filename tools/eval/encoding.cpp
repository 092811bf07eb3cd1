// Placeholder until encoding detection lands (owned by the encoding work).
#include "common/cli.hpp"
#include "eval_modes.hpp"
int langsift::cli::eval_encoding(int, char**) { return langsift::cli::fail("langsift-eval encoding", "not built yet"); }
