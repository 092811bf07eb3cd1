// `langsift` — the command-line front end. One subcommand per file in this directory; the dispatch
// to them is dispatch.cpp, which the Python package runs too (`python3 -m langsift`).
#include "subcommands.hpp"

int main(int argc, char** argv) { return langsift::cli::langsift_main(argc, argv); }
