// langsift._langsift — read_warc() and WarcReader: an iterator of WarcRecord over a WARC or WET
// file, a file object or bytes, shared by threads.
#include <mutex>
#include <thread>

#include "arguments.hpp"
#include "detect_options.hpp"
#include "errors.hpp"
#include "gil.hpp"
#include "langsift/warc.hpp"
#include "module.hpp"
#include "values.hpp"
#include "warc_records.hpp"

namespace langsift_py {

namespace {

enum class error_mode { warn, raise, ignore };

/// read_warc keeps the first this many problems in `errors` and warns for them one by one
/// (errors='warn'); `error_count` counts them all.
constexpr std::size_t kMaxKeptErrors = 100;

/// A Python error taken out of the interpreter (PyErr_Fetch) to be raised later.
class fetched_error {
 public:
  fetched_error() = default;
  fetched_error(const fetched_error&) = delete;
  fetched_error& operator=(const fetched_error&) = delete;
  ~fetched_error() { clear(); }  // with the GIL (the reader is destroyed with it)
  explicit operator bool() const noexcept { return type_ != nullptr; }
  void fetch() noexcept {
    clear();
    PyErr_Fetch(&type_, &value_, &tb_);
  }
  const char* type_name() const noexcept {
    return type_ && PyType_Check(type_) ? reinterpret_cast<PyTypeObject*>(type_)->tp_name : "error";
  }
  [[noreturn]] void raise() {
    PyErr_Restore(std::exchange(type_, nullptr), std::exchange(value_, nullptr), std::exchange(tb_, nullptr));
    throw py::error_already_set();
  }

 private:
  void clear() noexcept {  // a traceback may hold the last reference to a file object
    decref_parking(std::exchange(type_, nullptr));
    decref_parking(std::exchange(value_, nullptr));
    decref_parking(std::exchange(tb_, nullptr));
  }
  PyObject* type_ = nullptr;
  PyObject* value_ = nullptr;
  PyObject* tb_ = nullptr;
};

/// read_warc(): an iterator of WarcRecord. One lock per reader serialises next() and close() across
/// threads (each record goes to one caller); it is waited for with the GIL released, since its
/// holder may need the GIL (a file object's read()). Everything the properties read changes only
/// with the GIL held, so they take no lock.
class py_warc_reader {
 public:
  py_warc_reader(py::handle source, const std::shared_ptr<py_model>& model, bool all, bool any_type, bool main_content,
                 std::size_t max_record_bytes, const std::string& codes, const std::string& errors,
                 std::size_t max_text_bytes, std::size_t short_text_bytes, const warc_report_options& corpus = {})
      : model_(model_or_default(model)) {
    // The text, the schema and the language filter (read_warc's text, schema, languages, min_probability).
    opt_.text = corpus.text;
    opt_.schema = corpus.schema;
    opt_.languages = corpus.languages;
    opt_.min_probability = corpus.min_probability;
    if (errors == "warn") mode_ = error_mode::warn;
    else if (errors == "raise" || errors == "strict") mode_ = error_mode::raise;
    else if (errors == "ignore") mode_ = error_mode::ignore;
    else throw py::value_error("errors must be 'warn', 'raise' or 'ignore', not '" + errors + "'");
    if (max_record_bytes < 1024) throw py::value_error("max_record_bytes must be at least 1024");
    if (max_text_bytes < 256) throw py::value_error("max_text_bytes must be at least 256");
    opt_.all = all;
    opt_.any_type = any_type;
    opt_.main_content = main_content;
    opt_.codes = parse_codes(codes);
    opt_.max_body_bytes = max_record_bytes;
    opt_.detect.max_text_bytes = max_text_bytes;
    opt_.detect.short_text_bytes = short_text_bytes;
    warc_options wo;
    wo.max_block_bytes = max_record_bytes;
    if (source.is_none()) throw py::type_error("read_warc() takes a path or a binary file object, not None");
    if (PyBytes_Check(source.ptr()) || PyByteArray_Check(source.ptr()) || PyMemoryView_Check(source.ptr())) {
      py::buffer_info b = py::reinterpret_borrow<py::buffer>(source).request();
      data_.assign(static_cast<const char*>(b.ptr), static_cast<std::size_t>(b.size * b.itemsize));
      name_ = py::str("<bytes>");
      source_ = "<bytes>";
      reader_ = std::make_unique<warc_reader>(std::string_view(data_), wo);
    } else if (PyUnicode_Check(source.ptr()) || py::hasattr(source, "__fspath__")) {
      const fs_path path = path_arg(source);
      name_ = path.name;
      source_ = path.bytes;  // the corpus schema's "source" (bytes that are not UTF-8 become U+FFFD)
      file_ = std::fopen(path.bytes.c_str(), "rb");
      if (!file_) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name_.ptr());
        throw py::error_already_set();
      }
      reader_ = std::make_unique<warc_reader>([this](char* buf, std::size_t n) { return read_file(buf, n); }, wo);
    } else if (py::hasattr(source, "read")) {
      if (py::hasattr(source, "mode")) {
        py::object m = source.attr("mode");
        if (PyUnicode_Check(m.ptr()) && std::string(py::str(m)).find('b') == std::string::npos)
          throw py::type_error("read_warc() needs a file opened in binary mode ('rb')");
      }
      pyfile_ = py::reinterpret_borrow<py::object>(source);
      name_ = py::str("<stream>");
      if (py::hasattr(source, "name")) {
        py::object n = source.attr("name");
        name_ = PyBytes_Check(n.ptr()) ? fs_str(std::string_view(PyBytes_AS_STRING(n.ptr()),
                                                                  static_cast<std::size_t>(PyBytes_GET_SIZE(n.ptr()))))
                                       : py::str(n);
      }
      source_ = py::str(name_).attr("encode")("utf-8", "surrogateescape").cast<std::string>();
      reader_ = std::make_unique<warc_reader>([this](char* buf, std::size_t n) { return read_py(buf, n); }, wo);
    } else {
      throw py::type_error("read_warc() takes a path (str or os.PathLike), a binary file object or the WARC's bytes, not " +
                           std::string(py::str(source.get_type().attr("__name__"))));
    }
  }
  py_warc_reader(const py_warc_reader&) = delete;
  py_warc_reader& operator=(const py_warc_reader&) = delete;
  // With the GIL, and no other thread inside (each holds a reference to the reader).
  ~py_warc_reader() { release(); }

  /// close(): reading ends (ValueError from then on); the file and buffers are freed (a file
  /// object given is not closed: its owner closes it). Waits for a next() of another thread to
  /// return; from inside the file object's read(), the next() running closes it on return.
  void close() {
    if (owner_.load() == std::this_thread::get_id()) {
      close_requested_ = true;
      return;
    }
    in_use use(*this);
    if (closed_) return;
    closed_ = true;
    release();
    warn_summary();
  }

  py_warc_record next() {
    if (owner_.load() == std::this_thread::get_id())
      throw py::value_error("WarcReader already executing: next() called from its file object's read()");
    in_use use(*this);
    check_open();
    if (done_) throw py::stop_iteration();
    for (;;) {
      warc_status st;
      warc_report x;
      bool problem = false;
      std::string err;
      std::uint64_t err_offset = 0;
      {
        gil_released nogil;
        st = reader_->next(r_);
        if (st == warc_status::error || (st == warc_status::record && !r_.problem.empty())) {
          problem = true;
          err = reader_->error();
          err_offset = reader_->error_offset();
        }
        if (st == warc_status::record && !source_error_ && file_errno_ == 0)
          x = report_warc_record(*model_->m, r_, opt_, opt_.schema == warc_schema::corpus ? &source_ : nullptr);
      }
      input_bytes_ = reader_->input_bytes();
      if (source_error_) {  // the file object's read() raised or returned what is not bytes, or a signal handler raised
        fail(source_error_.type_name());
        source_error_.raise();
      }
      if (file_errno_ != 0) {
        fail("OSError");
        errno = file_errno_;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, name_.ptr());
        throw py::error_already_set();
      }
      if (close_requested_) {  // close() from inside the file object's read()
        closed_ = true;
        release();
        check_open();
      }
      if (problem) note_problem(err_offset, err);
      if (st == warc_status::end) {
        done_ = true;
        release();
        warn_summary();
        throw py::stop_iteration();
      }
      if (st == warc_status::record) stats_.s.add(x);
      if (st == warc_status::error || x.line.empty()) {  // not a record, or not a page and not asked for
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();  // Ctrl-C over a long stretch of junk
        continue;
      }
      py_warc_record rec;
      rec.offset = r_.offset;
      rec.length = r_.length;
      rec.warc_type = valid_utf8(r_.type());  // header values are the input's bytes
      rec.url = valid_utf8(r_.target_uri());
      rec.record_id = valid_utf8(r_.record_id());
      rec.content_type = valid_utf8(x.content_type);
      rec.content_language = valid_utf8(x.content_language);
      rec.http_status = x.http_status;
      rec.skipped = std::string(x.skip_reason);
      rec.problem = r_.problem;
      rec.line = std::move(x.line);
      if (!rec.line.empty() && rec.line.back() == '\n') rec.line.pop_back();
      if (x.classified) {
        rec.page = py_page::of(x.page, opt_.codes);
        if (opt_.text || opt_.schema == warc_schema::corpus) rec.page->text = std::move(x.page.text);
      }
      return rec;
    }
  }

  /// For __iter__: a closed reader raises, as a closed file does.
  void check_open() const {
    if (closed_) throw py::value_error("I/O operation on closed reader");
    if (!failed_.empty()) {
      PyErr_Format(PyExc_ValueError, "%U: reading stopped at an earlier error (%s)", name_.ptr(), failed_.c_str());
      throw py::error_already_set();
    }
  }

  const py::list& errors() const { return errors_; }
  std::uint64_t error_count() const { return error_count_; }
  const py_warc_stats& stats() const { return stats_; }
  const py::str& name() const { return name_; }
  bool closed() const { return closed_; }
  std::uint64_t input_bytes() const { return input_bytes_; }

 private:
  /// The reader's lock, held by one thread at a time, with that thread's id (to refuse a re-entry
  /// from the file object's read(), which would wait for itself).
  struct in_use {
    explicit in_use(py_warc_reader& r) : r_(r), lock_(r.mutex_, std::try_to_lock) {
      if (!lock_.owns_lock()) {
        gil_released nogil;  // the holder may be waiting for the GIL
        lock_.lock();
      }
      r_.owner_.store(std::this_thread::get_id());
    }
    ~in_use() { r_.owner_.store(std::thread::id()); }
    in_use(const in_use&) = delete;
    in_use& operator=(const in_use&) = delete;

   private:
    py_warc_reader& r_;
    std::unique_lock<std::mutex> lock_;
  };

  /// Frees the input: the file, the C++ reader and its buffers, the file object's reference.
  void release() noexcept {
    if (file_) std::fclose(file_);
    file_ = nullptr;
    reader_.reset();
    decref_parking(pyfile_.release().ptr());  // may close the file object (its last reference)
    std::string().swap(data_);
    std::string().swap(pending_);
    pending_pos_ = 0;
  }

  /// Reading cannot go on after an error of the input (or errors='raise'): later calls say so.
  void fail(const char* what) {
    done_ = true;
    failed_ = what;
    release();
  }

  /// Counts a problem of the input; keeps and warns for the first kMaxKeptErrors (then one summary
  /// at the end, warn_summary); raises for errors='raise'.
  void note_problem(std::uint64_t offset, const std::string& message) {
    stats_.s.add_malformed();
    ++error_count_;
    const bool kept = error_count_ <= kMaxKeptErrors;
    if (mode_ == error_mode::ignore && !kept) return;
    py::str text = py::reinterpret_steal<py::str>(
        PyUnicode_DecodeUTF8(message.data(), static_cast<Py_ssize_t>(message.size()), "replace"));
    if (!text) throw py::error_already_set();
    if (kept) errors_.append(py::make_tuple(offset, text));
    py::str msg = py::reinterpret_steal<py::str>(PyUnicode_FromFormat("%U: offset %llu: %U", name_.ptr(),
                                                                      static_cast<unsigned long long>(offset), text.ptr()));
    if (!msg) throw py::error_already_set();
    if (mode_ == error_mode::raise) {
      fail("WarcFormatError");
      raise_with_status(g_warc_error, msg, status::invalid_argument, offset);
    }
    if (mode_ == error_mode::warn && kept && PyErr_WarnFormat(g_warc_warning, 2, "%U", msg.ptr()) < 0)
      throw py::error_already_set();
  }

  /// errors='warn': one warning for the problems past the first kMaxKeptErrors, at the end of the
  /// input or at close().
  void warn_summary() {
    if (mode_ != error_mode::warn || summary_warned_ || error_count_ <= kMaxKeptErrors) return;
    summary_warned_ = true;
    if (PyErr_WarnFormat(g_warc_warning, 2,
                         "%U: ... and %llu more problems, not warned one by one (reader.error_count: %llu; "
                         "reader.errors keeps the first %llu)",
                         name_.ptr(), static_cast<unsigned long long>(error_count_ - kMaxKeptErrors),
                         static_cast<unsigned long long>(error_count_),
                         static_cast<unsigned long long>(kMaxKeptErrors)) < 0)
      throw py::error_already_set();
  }

  /// Checks for a signal (Ctrl-C: KeyboardInterrupt) from work without the GIL that may go on
  /// for long (an endless stream of junk, /dev/zero, is searched for a record in one next()): false
  /// when a handler raised, its error kept for next() to raise.
  bool signals_ok() noexcept {
    return with_gil_back([this] {
      const bool ok = PyErr_CheckSignals() == 0;
      if (!ok) source_error_.fetch();
      return ok;
    });
  }

  /// The reader's source over a file opened by path (called without the GIL): checks for signals
  /// every 1 MiB.
  std::size_t read_file(char* buf, std::size_t n) noexcept {
    if (source_error_) return 0;
    read_since_check_ += n;
    if (read_since_check_ >= (std::size_t{1} << 20)) {
      read_since_check_ = 0;
      if (!signals_ok()) return 0;
    }
    const std::size_t k = std::fread(buf, 1, n, file_);
    if (k < n && std::ferror(file_)) {
      file_errno_ = errno ? errno : EIO;
      return 0;
    }
    return k;
  }

  /// The reader's source over a Python file object: called by reader_->next() without the GIL (the
  /// reader's lock held). Bytes beyond n that read() returned are kept for the next call. An
  /// error of read() (or a result that is not bytes-like) is kept for next() to raise, and reads as
  /// the end of the input meanwhile.
  std::size_t read_py(char* buf, std::size_t n) {
    if (source_error_) return 0;
    if (pending_pos_ < pending_.size()) {
      const std::size_t k = std::min(n, pending_.size() - pending_pos_);
      std::memcpy(buf, pending_.data() + pending_pos_, k);
      pending_pos_ += k;
      return k;
    }
    // Python runs here, and may release the GIL: if the interpreter ends this thread when it asks
    // for it back, the thread is parked here, without unwinding through the C++ reader.
    return with_gil_back([&] { return read_py_with_gil(buf, n); });
  }

  /// One read(n) of the file object, with the GIL; C API only, C++ exceptions caught (see read_py).
  std::size_t read_py_with_gil(char* buf, std::size_t n) {
    if (PyErr_CheckSignals() != 0) {  // read() of a C stream may not check (see signals_ok)
      source_error_.fetch();
      return 0;
    }
    PyObject* chunk = PyObject_CallMethod(pyfile_.ptr(), "read", "n",
                                          static_cast<Py_ssize_t>(std::min<std::size_t>(n, PY_SSIZE_T_MAX)));
    if (!chunk) {
      source_error_.fetch();
      return 0;
    }
    std::size_t k = 0;
    if (chunk == Py_None) {
      PyObject* args = Py_BuildValue("(is)", EAGAIN,
                                     "read_warc(): the file object's read() returned None (a non-blocking stream "
                                     "with no data ready); read_warc needs a blocking stream");
      if (args) {
        PyErr_SetObject(PyExc_BlockingIOError, args);
        Py_DECREF(args);
      }
    } else if (PyUnicode_Check(chunk)) {
      PyErr_SetString(PyExc_TypeError,
                      "read_warc(): the file object's read() returned str: open the file in binary mode ('rb')");
    } else if (!PyObject_CheckBuffer(chunk)) {
      PyErr_Format(PyExc_TypeError, "read_warc(): the file object's read() must return bytes or another bytes-like "
                   "object, not %.200s", Py_TYPE(chunk)->tp_name);
    } else {
      Py_buffer view;
      if (PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE) == 0) {  // any contiguous buffer, as bytes
        const auto len = static_cast<std::size_t>(view.len);
        k = std::min(len, n);
        std::memcpy(buf, view.buf, k);
        if (len > n) {  // more than asked for: the rest is the next call's
          try {
            pending_.assign(static_cast<const char*>(view.buf) + n, len - n);
            pending_pos_ = 0;
          } catch (const std::bad_alloc&) {
            PyErr_NoMemory();
          }
        }
        PyBuffer_Release(&view);
      }
    }
    Py_DECREF(chunk);
    if (PyErr_Occurred()) {
      source_error_.fetch();
      return 0;
    }
    return k;
  }

  std::shared_ptr<py_model> model_;
  warc_report_options opt_;
  error_mode mode_ = error_mode::warn;
  py::str name_;
  std::string source_;      // name_ as UTF-8 (with surrogateescape's bytes): the corpus schema's "source"
  std::FILE* file_ = nullptr;
  int file_errno_ = 0;      // a read error of file_
  std::size_t read_since_check_ = 0;  // bytes read since signals_ok()
  std::string data_;        // WARC bytes given in memory
  py::object pyfile_;
  std::string pending_;     // bytes a read() returned beyond what was asked, from pending_pos_
  std::size_t pending_pos_ = 0;
  fetched_error source_error_;
  std::unique_ptr<warc_reader> reader_;
  warc_record r_;
  py_warc_stats stats_;
  py::list errors_;         // the first kMaxKeptErrors problems: (offset, message)
  std::uint64_t error_count_ = 0;
  std::uint64_t input_bytes_ = 0;
  std::mutex mutex_;
  std::atomic<std::thread::id> owner_{};
  std::string failed_;      // set when an error ended reading: the error's type
  bool done_ = false, closed_ = false, close_requested_ = false, summary_warned_ = false;
};

/// The WarcReader class.
void bind_warc_reader_class(py::module_& m) {
  py::class_<py_warc_reader>(m, "WarcReader",
      "An iterator of WarcRecord over one WARC or WET file (plain or gzip). `errors` lists the first 100 "
      "(offset, message) for input that was not a well-formed record, `error_count` counts them all; "
      "`stats` sums what was read so far. Threads may share a reader: next() and close() take turns "
      "(each record goes to one of them). After close() (or the end of a `with` block), next() raises "
      "ValueError.")
      .def("__iter__", [](py_warc_reader& r) -> py_warc_reader& {
        r.check_open();
        return r;
      })
      .def("__next__", &py_warc_reader::next)
      .def("__enter__", [](py_warc_reader& r) -> py_warc_reader& {
        r.check_open();
        return r;
      })
      .def("__exit__", [](py_warc_reader& r, py::args) { r.close(); })
      .def("close", &py_warc_reader::close,
           "Ends reading and frees the input (a file object given is left open: its owner closes it). "
           "Waits for a next() running in another thread. Warns the summary of the problems past the first "
           "100 (errors='warn') if the end was not reached.")
      .def_property_readonly("closed", &py_warc_reader::closed)
      .def_property_readonly("errors", &py_warc_reader::errors,
                             "The first 100 problems of the input, as (offset, message); error_count counts all.")
      .def_property_readonly("error_count", &py_warc_reader::error_count,
                             "How many problems the input had so far (every one; errors keeps the first 100).")
      .def_property_readonly("stats", &py_warc_reader::stats)
      .def_property_readonly("name", &py_warc_reader::name)
      .def_property_readonly("input_bytes", &py_warc_reader::input_bytes)
      .def("__repr__", [](const py_warc_reader& r) {
        return py::str("WarcReader(name={!r}, records={}, errors={})").format(r.name(), r.stats().s.records, r.error_count());
      });
  not_pickled(m, "WarcReader", "it reads an open input; pickle the path");
}

/// read_warc().
void bind_read_warc(py::module_& m) {
  const detect_options dflt;
  m.def("read_warc",
        [](warc_source_in source, model_in model, bool_in all, bool_in any_type, bool_in main_content,
           int_in max_record_bytes, choice_in codes, choice_in errors, int_in max_text_bytes, int_in short_text_bytes,
           bool_in text, choice_in schema, codes_in languages, float_in min_probability) {
          // The arguments converted and checked here (TypeError / ValueError naming them); their values by the reader.
          const std::shared_ptr<py_model> chosen = model_arg(model);
          warc_report_options corpus;  // text, schema and language filter (as langsift warc's options)
          corpus.text = bool_arg(text, "text");
          const std::string_view sc = str_view(schema, "schema");
          if (sc == "corpus") corpus.schema = warc_schema::corpus;
          else if (sc != "default") throw py::value_error("schema must be 'default' or 'corpus', not " + langsift::detail::quoted_value(sc));
          if (!languages.is_none()) {
            std::vector<std::string> given;
            corpus.languages = code_list(languages, "languages", &given);
            if (corpus.languages.empty()) throw py::value_error("languages is empty: give at least one language code, or None");
            require_model_codes(*model_or_default(chosen)->m, corpus.languages, given, "languages");
          }
          corpus.min_probability = static_cast<float>(float_arg(min_probability, "min_probability", 0.0, 1.0));
          if (bool_arg(all, "all") && (corpus.schema == warc_schema::corpus || !corpus.languages.empty() ||
                                       corpus.min_probability > 0))
            throw py::value_error("all=True yields every record; schema='corpus', languages and min_probability "
                                  "yield only pages: choose one");
          return std::make_unique<py_warc_reader>(
              source, chosen, bool_arg(all, "all"), bool_arg(any_type, "any_type"),
              bool_arg(main_content, "main_content"),
              static_cast<std::size_t>(int_arg(max_record_bytes, "max_record_bytes", 0, SIZE_MAX)),
              str_value(codes, "codes"), str_value(errors, "errors"),
              static_cast<std::size_t>(int_arg(max_text_bytes, "max_text_bytes", 0, SIZE_MAX)),
              static_cast<std::size_t>(int_arg(short_text_bytes, "short_text_bytes", 0, SIZE_MAX)), corpus);
        },
        py::arg("source"), py::kw_only(), py::arg("model") = nullptr, py::arg("all") = false,
        py::arg("any_type") = false, py::arg("main_content") = false,
        py::arg("max_record_bytes") = warc_options{}.max_block_bytes, py::arg("codes") = "iso639-1",
        py::arg("errors") = "warn", py::arg("max_text_bytes") = dflt.max_text_bytes,
        py::arg("short_text_bytes") = dflt.short_text_bytes, py::arg("text") = false, py::arg("schema") = "default",
        py::arg("languages") = py::none(), py::arg("min_probability") = 0.0,
        R"doc(Reads a WARC or WET file (WARC/1.0, 1.1; plain, gzip or zstd) and identifies every page.

source: a path (str or os.PathLike; a file name that is not UTF-8 as os.fsdecode() gives it, or
  as an os.PathLike whose __fspath__ returns bytes), a binary file object (anything with read(n)
  returning a bytes-like object, of any length: open(p, 'rb'), fsspec.open(url, 'rb'),
  sys.stdin.buffer; a blocking one: read() returning None raises BlockingIOError), or the WARC
  itself as bytes, bytearray or memoryview.
model: a langsift.Model, a built-in model's name ('wide') or a model file's path (a built-in name
  wins over a file so named, as the tools' --model); default: the built-in model.
Yields a WarcRecord for every response, resource and conversion record (all=True: for every
record) with .url, .record_id, .offset, .page (a PageResult) and .to_dict() / .json: the line
`langsift warc` prints for it. Records whose Content-Type is not textual are skipped (.skipped);
any_type=True classifies them too. A record's block is kept up to max_record_bytes.
text=True: each page's text is kept (.text, .page.text) and in .json, as `langsift warc --text`
  writes it (without, .text is None: the text costs memory as long as the record lives).
schema='corpus': .json is the document `langsift warc --schema corpus` writes (id, source, url,
  language, language_score, metadata, text; the text is kept); records that are not pages are
  not yielded.
languages (codes), min_probability (0..1): yield only pages whose top language is one of these,
  at that calibrated probability at least, as `langsift warc --languages --min-probability`; the
  others are counted in .stats.filtered. Records that are not pages are not yielded then.
errors: what to do with input that is not a well-formed record: 'warn' (default: a
  WarcFormatWarning for each of the first 100, then one summary at the end of the input or at
  close(), and reading goes on), 'raise' (WarcFormatError), 'ignore'. Either way the reader's
  .errors lists the first 100 as (offset, message), .error_count counts them all and .stats counts
  them as malformed.
Threads may share a reader (next() and close() take turns); after close() or a `with` block,
next() raises ValueError. An error of the input (of read(), or errors='raise') ends reading: the
next call raises ValueError saying so.)doc");
}

}  // namespace

void bind_warc_reader(py::module_& m) {
  bind_warc_reader_class(m);
  bind_read_warc(m);
}

}  // namespace langsift_py
