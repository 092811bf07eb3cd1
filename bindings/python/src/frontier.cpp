// langsift._langsift — Frontier (a language-aware crawl frontier), FrontierDecision and
// FrontierGuess.
#include <array>

#include "arguments.hpp"
#include "detect_options.hpp"
#include "errors.hpp"
#include "gil.hpp"
#include "langsift/frontier.hpp"
#include "langsift/url_models.hpp"
#include "module.hpp"
#include "results.hpp"
#include "url.hpp"
#include "values.hpp"

namespace langsift_py {

namespace {

struct py_guess {
  code_value code;
  std::uint32_t votes = 0;
  float url_score = 0, probability = 0;
};

struct py_decision {
  bool fetch = true;
  std::string reason;
  float priority = 0;
  std::uint32_t votes = 0;
  std::vector<py_guess> guesses;
  std::string_view language() const noexcept { return guesses.empty() ? std::string_view("und") : guesses[0].code.view(); }
};

py::tuple guess_state(const py_guess& g) {
  return py::make_tuple(to_py(g.code.view()), g.votes, static_cast<double>(g.url_score),
                        static_cast<double>(g.probability));
}

py_guess guess_from_state(py::handle h) {
  const state_reader r(h, "FrontierGuess", 4);
  return {r.code(0), static_cast<std::uint32_t>(r.uint(1, UINT32_MAX)), r.real(2), r.real(3)};
}

py::tuple decision_state(const py_decision& d) {
  py::tuple g(d.guesses.size());
  for (std::size_t i = 0; i < d.guesses.size(); ++i) g[i] = guess_state(d.guesses[i]);
  return py::make_tuple(d.fetch, d.reason, static_cast<double>(d.priority), d.votes, g);
}

py_decision decision_from_state(py::handle h) {
  const state_reader r(h, "FrontierDecision", 5);
  py_decision d;
  d.fetch = r.flag(0);
  d.reason = r.str(1);
  d.priority = r.real(2);
  d.votes = static_cast<std::uint32_t>(r.uint(3, UINT32_MAX));
  for (py::handle g : r.items(4, frontier::kGuesses)) d.guesses.push_back(guess_from_state(g));
  return d;
}

py_decision decision_of(const frontier_decision& d) {
  py_decision r;
  r.fetch = d.fetch();
  r.reason = std::string(frontier_reason_name(d.reason));
  r.priority = d.priority;
  r.votes = d.votes;
  for (std::size_t i = 0; i < d.count; ++i)
    r.guesses.push_back({code_value::of(d.guesses[i].code.view(), code_style::iso639_1), d.guesses[i].votes,
                         d.guesses[i].url_score, d.guesses[i].probability});
  return r;
}

/// decide()'s keyword arguments, converted and checked.
struct decide_args {
  bool classify = true;
  std::string country;
  float min_url_score = 0;
  url_options o;  // o.country_hint views `country`: not copied or moved once set

  decide_args(py::handle classify_h, py::handle country_h, py::handle min_url_score_h)
      : classify(bool_arg(classify_h, "classify")),
        country(country_arg(country_h)),
        min_url_score(static_cast<float>(float_arg(min_url_score_h, "min_url_score", 0, 1))) {
    o.country_hint = country;
  }
  decide_args(const decide_args&) = delete;
};

/// The frontier's decision, with the URL classifier's scores when `classify` and when its top
/// language scores at least `min_url_score`: an answer below that (on URLs that carry no language,
/// the classifier spreads a little probability over many languages) is no evidence, and counting
/// it would weigh a link's referrer votes down.
frontier_decision decide_one(const frontier& f, std::string_view url, const decide_args& a) {
  if (!a.classify) return f.decide(url);
  const url_result u = default_url_classifier().classify(url, a.o);
  if (u.count == 0 || u.languages[0].score < a.min_url_score) return f.decide(url);
  return f.decide(url, &u);
}

/// A URL argument of the frontier, whole (its key is the URL's): TypeError for anything but a
/// str, ValueError for a lone surrogate (replacing it would give two URLs one key).
std::string_view url_arg(py::handle h, const char* what) { return str_view(h, what); }

/// URLs given as an iterable of str (a str alone is refused: it is one URL, not several).
std::vector<std::string_view> url_views(py::handle urls, const char* fn, py::list& keep) {
  if (PyUnicode_Check(urls.ptr()) || PyBytes_Check(urls.ptr()))
    throw py::type_error(std::string(fn) + "(): urls must be an iterable of str (URLs), not str or bytes (one URL)");
  keep = list_arg(urls, (std::string(fn) + "(): urls").c_str(), "str (URLs)");  // a copy: see detect_many
  std::vector<std::string_view> v;
  v.reserve(keep.size());
  for (std::size_t i = 0; i < keep.size(); ++i) {
    const std::string what = std::string(fn) + "(): urls[" + std::to_string(i) + "]";
    v.push_back(url_arg(PyList_GET_ITEM(keep.ptr(), static_cast<Py_ssize_t>(i)), what.c_str()));
  }
  return v;
}

class py_frontier {
 public:
  py_frontier(const frontier_options& o, std::shared_ptr<py_model> also)
      : f_(std::make_unique<frontier>(o)), also_(std::move(also)) {}

  frontier& f() { return *f_; }
  const frontier& f() const { return *f_; }

  /// A language code argument (either ISO form) in langsift's form, checked as filter labels are.
  std::string code(py::handle h, const char* what) const {
    std::vector<std::string> given{str_value(h, what)};
    std::vector<std::string> codes{to_iso639_1(given[0])};
    require_known_codes(codes, given, what, also_ ? also_->m.get() : nullptr);
    return std::move(codes[0]);
  }

  py_decision decide(str_in url, bool_in classify, opt_str_in country, float_in min_url_score) const {
    const std::string_view u = url_arg(url, "url");
    const decide_args a(classify, country, min_url_score);
    frontier_decision d;
    {
      gil_released nogil;
      d = decide_one(*f_, u, a);
    }
    return decision_of(d);
  }

  py::list decide_many(texts_in urls, bool_in classify, opt_str_in country, float_in min_url_score) const {
    py::list keep;
    const std::vector<std::string_view> in = url_views(urls, "decide_many", keep);
    const decide_args a(classify, country, min_url_score);
    std::vector<frontier_decision> out(in.size());
    {
      gil_released nogil;
      for (std::size_t i = 0; i < in.size(); ++i) out[i] = decide_one(*f_, in[i], a);
    }
    py::list r;
    for (const auto& d : out) r.append(py::cast(decision_of(d)));
    return r;
  }

 private:
  std::unique_ptr<frontier> f_;
  std::shared_ptr<py_model> also_;  // Frontier(model=...): its codes are accepted too
};

/// The FrontierGuess and FrontierDecision classes.
void bind_frontier_results(py::module_& m) {
  value_type(py::class_<py_guess>(m, "FrontierGuess", "One guess about a URL's language.")
      .def_property_readonly("code", [](const py_guess& g) { return to_py(g.code.view()); })
      .def_readonly("votes", &py_guess::votes, "Referrer votes for this language.")
      .def_readonly("url_score", &py_guess::url_score, "The URL classifier's score.")
      .def_readonly("probability", &py_guess::probability, "The combined estimate.")
      .def("__repr__", [](const py_guess& g) {
        return "FrontierGuess(code='" + std::string(g.code.view()) + "', votes=" + std::to_string(g.votes) +
               ", url_score=" + fmt_float(g.url_score) + ", probability=" + fmt_float(g.probability) + ")";
      }),
             guess_state, guess_from_state);

  value_type(py::class_<py_decision>(m, "FrontierDecision", "Fetch or skip a URL, and with which priority.")
      .def_readonly("fetch", &py_decision::fetch, "True: fetch it; False: skip it.")
      .def_property_readonly("action", [](const py_decision& d) { return d.fetch ? "fetch" : "skip"; })
      .def_readonly("reason", &py_decision::reason,
                    "'wanted', 'unknown', 'unwanted' (fetch); 'saturated', 'fetched', 'invalid' (skip).")
      .def_readonly("priority", &py_decision::priority, "0..1, higher first: the probability of a wanted language.")
      .def_readonly("votes", &py_decision::votes, "Referrer votes the URL collected.")
      .def_property_readonly("language", [](const py_decision& d) { return to_py(d.language()); })
      .def_property_readonly("guesses", [](const py_decision& d) { return py::tuple(py::cast(d.guesses)); })
      .def("to_dict", [](const py_decision& d) {
        py::dict x;
        x["action"] = d.fetch ? "fetch" : "skip";
        x["reason"] = d.reason;
        x["priority"] = round3(d.priority);
        x["votes"] = d.votes;
        x["language"] = to_py(d.language());
        py::list g;
        for (const auto& e : d.guesses) {
          py::dict y;
          y["code"] = to_py(e.code.view());
          y["votes"] = e.votes;
          y["url_score"] = round3(e.url_score);
          y["probability"] = round3(e.probability);
          g.append(y);
        }
        x["guesses"] = g;
        return x;
      })
      .def("__repr__", [](const py_decision& d) {
        return std::string("FrontierDecision(action='") + (d.fetch ? "fetch" : "skip") + "', reason='" + d.reason +
               "', priority=" + fmt_float(d.priority) + ", votes=" + std::to_string(d.votes) + ", language='" +
               std::string(d.language()) + "')";
      }),
             decision_state, decision_from_state);

}

/// Frontier(...), its options.
py::class_<py_frontier> bind_frontier_class(py::module_& m) {
  const frontier_options fo;
  py::class_<py_frontier> cls(m, "Frontier",
      "A language-aware crawl frontier (ClueWeb09's method with Baykan et al.'s URL classifier): fetched "
      "pages vote for their out-links' languages, per-language quotas say what is still wanted, and "
      "decide(url) answers fetch or skip with a priority. Thread-safe; codes in either ISO form.");
  cls
      .def(py::init([](int_in min_vote_percent, float_in url_weight, float_in vote_prior, float_in min_url_guess,
                       float_in unknown_priority, bool_in skip_saturated, bool_in skip_unwanted, int_in max_urls,
                       model_in model) {
             frontier_options o;
             o.min_vote_percent = static_cast<int>(int_arg(min_vote_percent, "min_vote_percent", 0, 100));
             o.url_weight = static_cast<float>(float_arg(url_weight, "url_weight", 0, frontier::kMaxWeight));
             o.vote_prior = static_cast<float>(float_arg(vote_prior, "vote_prior", 0, frontier::kMaxWeight));
             o.min_url_guess = static_cast<float>(float_arg(min_url_guess, "min_url_guess", 0, frontier::kMaxWeight));
             o.unknown_priority = static_cast<float>(float_arg(unknown_priority, "unknown_priority", 0, 1));
             o.skip_saturated = bool_arg(skip_saturated, "skip_saturated");
             o.skip_unwanted = bool_arg(skip_unwanted, "skip_unwanted");
             o.max_urls = static_cast<std::size_t>(int_arg(max_urls, "max_urls", 0, SIZE_MAX));
             return std::make_unique<py_frontier>(o, model_arg(model));
           }),
           py::kw_only(), py::arg("min_vote_percent") = fo.min_vote_percent, py::arg("url_weight") = fo.url_weight,
           py::arg("vote_prior") = fo.vote_prior, py::arg("min_url_guess") = fo.min_url_guess,
           py::arg("unknown_priority") = fo.unknown_priority, py::arg("skip_saturated") = fo.skip_saturated,
           py::arg("skip_unwanted") = fo.skip_unwanted, py::arg("max_urls") = fo.max_urls, py::arg("model") = py::none(),
           "Options as frontier_options (docs/frontier.md). model: a Model (or a built-in model's name, or a "
           "model file's path) whose language codes the frontier accepts besides those of the built-in models "
           "(a trained model's).");
  return cls;
}

/// Frontier's quotas.
void def_frontier_quotas(py::class_<py_frontier>& cls) {
  cls
      .def("set_quota", [](py_frontier& f, str_in code, int_in target) {
             const std::string c = f.code(code, "code");
             if (!f.f().set_quota(c, int_arg(target, "target"))) throw py::value_error("set_quota: the frontier's language table is full");
           }, py::arg("code"), py::arg("target"),
           "Target page count of a language (0 removes the quota). A code no built-in model (nor the frontier's "
           "model) can answer raises ValueError.")
      .def("quota", [](const py_frontier& f, str_in code) {
             const frontier_quota q = f.f().quota(f.code(code, "code"));
             return py::make_tuple(q.target, q.count);
           }, py::arg("code"), "(target, pages counted) of a language.")
      .def("quotas", [](const py_frontier& f) {
             py::dict d;
             for (const auto& [c, q] : f.f().quotas()) d[py::str(c)] = py::make_tuple(q.target, q.count);
             return d;
           }, "{code: (target, pages counted)} of every language the frontier knows.")
      .def("saturated", [](const py_frontier& f, str_in code) { return f.f().saturated(f.code(code, "code")); },
           py::arg("code"))
      .def("all_saturated", [](const py_frontier& f) { return f.f().all_saturated(); })
      .def("count_page", [](py_frontier& f, str_in code, int_in pages) {
             const std::string c = f.code(code, "code");
             return f.f().count_page(c, int_arg(pages, "pages"));
           }, py::arg("code"), py::arg("pages") = 1);
}

/// Frontier's fetches, votes and decisions.
void def_frontier_decisions(py::class_<py_frontier>& cls) {
  cls
      .def("record_fetch", [](py_frontier& f, str_in url, const py_detection& d) {
             std::array<std::string, 3> store;
             const detection cd = d.to_cpp(store);
             return f.f().record_fetch(url_arg(url, "url"), cd);
           }, py::arg("url"), py::arg("detection"),
           "Marks a URL fetched and counts the page for its top language's quota.")
      .def("mark_fetched", [](py_frontier& f, str_in url) { return f.f().mark_fetched(url_arg(url, "url")); }, py::arg("url"))
      .def("fetched", [](const py_frontier& f, str_in url) { return f.f().fetched(url_arg(url, "url")); }, py::arg("url"))
      .def("vote", [](py_frontier& f, str_in url, str_in code) {
             const std::string_view u = url_arg(url, "url");
             return f.f().vote(u, f.code(code, "code"));
           }, py::arg("url"), py::arg("code"), "One referrer vote: `code` is a guess for `url`'s language.")
      .def("add_votes", [](py_frontier& f, const py_detection& d, texts_in urls) {
             std::array<std::string, 3> store;
             const detection cd = d.to_cpp(store);
             py::list keep;
             const std::vector<std::string_view> v = url_views(urls, "add_votes", keep);
             gil_released nogil;
             return f.f().add_votes(cd, std::span<const std::string_view>(v));
           }, py::arg("detection"), py::arg("urls"),
           "A fetched page's languages (those with >= min_vote_percent of its text) vote for each out-link. "
           "Short pages (under 400 bytes of text) and 'und' pages cast no vote. Returns the votes recorded.")
      .def("votes", [](const py_frontier& f, str_in url) {
             py::dict d;
             for (const auto& [c, n] : f.f().votes(url_arg(url, "url"))) d[py::str(c)] = n;
             return d;
           }, py::arg("url"), "{code: votes} for a URL.")
      .def("decide", &py_frontier::decide, py::arg("url"), py::kw_only(), py::arg("classify") = true,
           py::arg("country") = py::none(), py::arg("min_url_score") = 0.0f,
           "Fetch or skip `url`, with a priority from its referrer votes and (classify=True) the URL classifier's "
           "scores (country: the host's ISO 3166-1 country, a hint). A classifier answer whose top score is under "
           "min_url_score counts as no answer.")
      .def("decide_many", &py_frontier::decide_many, py::arg("urls"), py::kw_only(), py::arg("classify") = true,
           py::arg("country") = py::none(), py::arg("min_url_score") = 0.0f,
           "decide() for many URLs at once, with the GIL released.");
}

/// Frontier's size and state (save, load, bytes).
void def_frontier_state(py::class_<py_frontier>& cls) {
  cls
      .def("__len__", [](const py_frontier& f) { return f.f().size(); })
      .def_property_readonly("memory_bytes", [](const py_frontier& f) { return f.f().memory_bytes(); })
      .def_property_readonly("dropped_votes", [](const py_frontier& f) { return f.f().dropped_votes(); })
      .def("save", [](const py_frontier& f, path_in path) {
             const std::string p = path_arg(path).bytes;
             std::string message;
             status st;
             {
               gil_released nogil;
               st = f.f().save_file(p, &message);
             }
             if (st != status::ok) raise_io(st, message, p);
           }, py::arg("path"), "Writes the state to a file (a temporary file renamed into place).")
      .def("load", [](py_frontier& f, path_in path) {
             const std::string p = path_arg(path).bytes;
             std::string message;
             status st;
             {
               gil_released nogil;
               st = frontier::load_file(p, f.f(), &message);
             }
             if (st != status::ok) raise_io(st, message, p);
           }, py::arg("path"),
           "Replaces the state with a saved one. A truncated, corrupt or foreign file raises (the frontier "
           "is then unchanged).")
      .def("to_bytes", [](const py_frontier& f) {
             std::string s;
             {
               gil_released nogil;
               s = f.f().save();
             }
             return py::bytes(s);
           })
      .def("from_bytes", [](py_frontier& f, const py::bytes& b) {
             const std::string s = b;
             std::string message;
             const status st = frontier::load_copy(s, f.f(), &message);
             if (st != status::ok) raise_io(st, message, "Frontier.from_bytes");
           }, py::arg("data"))
      .def("__repr__", [](const py_frontier& f) {
        return "Frontier(" + std::to_string(f.f().size()) + " URLs, " + std::to_string(f.f().quotas().size()) +
               " languages)";
      });;
}

}  // namespace

void bind_frontier(py::module_& m) {
  bind_frontier_results(m);
  py::class_<py_frontier> cls = bind_frontier_class(m);
  def_frontier_quotas(cls);
  def_frontier_decisions(cls);
  def_frontier_state(cls);
  not_pickled(m, "Frontier", "its state is to_bytes() / from_bytes() or save() / load()");
}

}  // namespace langsift_py
