// `python3 -m langsift` and the `langsift` command of a pip install: the C++ command itself
// (tools/langsift, linked into the extension as the library langsift_cli), run in this process on
// its standard descriptors — the same code as the `langsift` executable, so the same output byte
// for byte. The Python side (_cli_main below, langsift/__main__.py) converts argv, flushes Python's
// streams and releases the GIL around run_cli().
#include <csignal>
#include <mutex>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "common/output.hpp"
#include "gil.hpp"
#include "langsift/subcommands.hpp"  // tools/langsift/subcommands.hpp
#include "module.hpp"

namespace langsift_py {

namespace {

/// Runs `langsift args[1]...` (args[0]: the program) and returns its exit status. While it runs,
/// the signals the tools handle have their default action, as in a process of their own: Ctrl-C
/// (SIGINT) and SIGTERM end the process (its status then says so: 130, 143 in a shell) after the
/// tools' handlers have removed the temporary files being written (common/output.hpp), and a
/// closed pipe (SIGPIPE) ends it quietly, where CPython ignores SIGPIPE and SIGXFSZ and turns SIGINT
/// into KeyboardInterrupt, which no C++ loop would see. A signal that was ignored when Python
/// started (SIGINT, SIGTERM, SIGHUP under nohup or in a background job) stays ignored. The
/// handlers are restored afterwards. One call at a time (the tools' stdout is the process's).
int run_cli(std::vector<std::string>& args) {
  static std::mutex one_at_a_time;
  const std::lock_guard lock(one_at_a_time);
  constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ};
  struct sigaction saved[std::size(kSignals)] = {};
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    ::sigaction(kSignals[i], nullptr, &saved[i]);
    const bool inherited_ignore = saved[i].sa_handler == SIG_IGN && kSignals[i] != SIGPIPE && kSignals[i] != SIGXFSZ;
    if (inherited_ignore) continue;
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(kSignals[i], &dfl, nullptr);
  }
  langsift::cli::detail::g_temp_handlers_installed = false;  // install them over the defaults
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = langsift::cli::langsift_main(static_cast<int>(args.size()), argv.data(), /*embedded=*/true);
  for (std::size_t i = 0; i < std::size(kSignals); ++i) ::sigaction(kSignals[i], &saved[i], nullptr);
  langsift::cli::detail::g_temp_handlers_installed = false;
  return rc;
}

}  // namespace

void bind_cli(py::module_& m) {
  m.def("_cli_main", [](py::handle argv) {
        if (PyUnicode_Check(argv.ptr()) || PyBytes_Check(argv.ptr()) || !PySequence_Check(argv.ptr()))
          throw py::type_error("argv must be a list of str or bytes, not " + type_name(argv));
        std::vector<std::string> args;
        for (py::handle a : py::reinterpret_borrow<py::sequence>(argv)) {
          py::object b = py::reinterpret_borrow<py::object>(a);
          if (PyUnicode_Check(a.ptr())) {  // as the OS gave it: os.fsencode()
            b = py::reinterpret_steal<py::object>(PyUnicode_EncodeFSDefault(a.ptr()));
            if (!b) throw py::error_already_set();
          } else if (!PyBytes_Check(a.ptr())) {
            throw py::type_error("argv: an argument must be str or bytes, not " + type_name(a));
          }
          args.emplace_back(PyBytes_AS_STRING(b.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr())));
          if (args.back().find('\0') != std::string::npos) throw py::value_error("argv: an argument holds a NUL byte");
        }
        if (args.empty()) throw py::value_error("argv is empty (argv[0] is the program's name)");
        const py::module_ sys = py::module_::import("sys");
        for (const char* stream : {"stdout", "stderr"})  // what Python wrote comes first
          if (const py::object f = sys.attr(stream); !f.is_none()) f.attr("flush")();
        gil_released nogil;
        return run_cli(args);
      }, py::arg("argv"),
      "Runs the `langsift` command (the C++ tool, linked in) with argv (argv[0]: the program's name) on "
      "this process's standard input, output and error descriptors, and returns its exit status: what "
      "`python3 -m langsift` and the `langsift` script of a pip install run. While it runs, SIGINT, "
      "SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ have their default actions, as in the tool's own process "
      "(Ctrl-C ends the process; no KeyboardInterrupt).");
}

}  // namespace langsift_py
