// SVG chart of per-language accuracy; see lang_svg.hpp.
#include "lang_svg.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string_view>

namespace langsift::eval {

namespace {

constexpr const char* kColours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
                                    "#b07aa1", "#edc948", "#9c755f", "#ff9da7", "#bab0ac"};
constexpr int kNumColours = sizeof kColours / sizeof kColours[0];

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", fraction * 100.0);
  return buf;
}

// Geometry shared by all panels.
struct layout {
  int bar_width = 5;
  int group_gap = 6;
  int left = 48;
  int right = 24;
  int plot_height = 220;
  int legend_line = 16;
  int label_space = 44;  // rotated language codes under the bars

  int group_width(std::size_t series) const { return static_cast<int>(series) * bar_width + group_gap; }
};

/// A panel's legend (colour, name, macro mean per series) from `top`: the y below it.
int render_legend(std::string& s, const layout& g, const svg_panel& p, int top) {
  const std::size_t k = p.series.size();
  int ly = top + 24;
  for (std::size_t si = 0; si < k; ++si) {
    const char* colour = kColours[si % kNumColours];
    s += "<rect x=\"" + std::to_string(g.left) + "\" y=\"" + std::to_string(ly + 3) +
         "\" width=\"10\" height=\"10\" fill=\"" + colour + "\"/>";
    s += "<line x1=\"" + std::to_string(g.left + 16) + "\" y1=\"" + std::to_string(ly + 8) + "\" x2=\"" +
         std::to_string(g.left + 36) + "\" y2=\"" + std::to_string(ly + 8) + "\" stroke=\"" + colour +
         "\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>";
    s += "<text x=\"" + std::to_string(g.left + 42) + "\" y=\"" + std::to_string(ly + 12) + "\">" +
         xml_escape(p.series[si].name) + " — macro mean " + percent(p.series[si].macro) + " %</text>\n";
    ly += g.legend_line;
  }
  return ly;
}

/// One panel at `top`: its title, legend, axis, bars sorted by the first series, macro lines.
void render_panel(std::string& s, const layout& g, const svg_panel& p, int top, int plot_width) {
  const std::size_t n = p.labels.size(), k = p.series.size();
  s += "<g>\n<text x=\"" + std::to_string(g.left) + "\" y=\"" + std::to_string(top + 16) +
       "\" font-size=\"13\" font-weight=\"bold\">" + xml_escape(p.title) + "</text>\n";

  const int ly = render_legend(s, g, p, top);

  // Plot area.
  const int plot_top = ly + 8;
  const int plot_bottom = plot_top + g.plot_height;
  auto y_of = [&](double fraction) {
    return static_cast<double>(plot_bottom) - std::clamp(fraction, 0.0, 1.0) * g.plot_height;
  };
  for (int tick = 0; tick <= 100; tick += 20) {
    double ty = y_of(tick / 100.0);
    s += "<line x1=\"" + std::to_string(g.left) + "\" y1=\"" + num(ty) + "\" x2=\"" +
         std::to_string(g.left + plot_width) + "\" y2=\"" + num(ty) + "\" stroke=\"" +
         (tick == 0 ? "#444444" : "#dddddd") + "\" stroke-width=\"1\"/>";
    s += "<text x=\"" + std::to_string(g.left - 6) + "\" y=\"" + num(ty + 4) + "\" text-anchor=\"end\">" +
         std::to_string(tick) + " %</text>\n";
  }

  // Languages sorted by the first series, best first.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (k > 0) {
    const std::vector<double>& v = p.series[0].values;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (v[a] != v[b]) return v[a] > v[b];
      return p.labels[a] < p.labels[b];
    });
  }
  const int gw = g.group_width(k);
  for (std::size_t oi = 0; oi < n; ++oi) {
    std::size_t li = order[oi];
    int gx = g.left + static_cast<int>(oi) * gw + g.group_gap / 2;
    for (std::size_t si = 0; si < k; ++si) {
      double v = p.series[si].values[li];
      double by = y_of(v);
      s += "<rect x=\"" + std::to_string(gx + static_cast<int>(si) * g.bar_width) + "\" y=\"" + num(by) +
           "\" width=\"" + std::to_string(g.bar_width) + "\" height=\"" + num(plot_bottom - by) + "\" fill=\"" +
           kColours[si % kNumColours] + "\"><title>" + xml_escape(p.labels[li]) + " · " +
           xml_escape(p.series[si].name) + ": " + percent(v) + " %</title></rect>";
    }
    double cx = gx + static_cast<double>(k) * g.bar_width / 2.0;
    s += "<text transform=\"translate(" + num(cx + 3.5) + "," + std::to_string(plot_bottom + 6) +
         ") rotate(-90)\" text-anchor=\"end\" font-size=\"10\">" + xml_escape(p.labels[li]) + "</text>\n";
  }

  // Macro means as dashed lines across the plot.
  for (std::size_t si = 0; si < k; ++si) {
    double my = y_of(p.series[si].macro);
    s += "<line x1=\"" + std::to_string(g.left) + "\" y1=\"" + num(my) + "\" x2=\"" +
         std::to_string(g.left + plot_width) + "\" y2=\"" + num(my) + "\" stroke=\"" +
         kColours[si % kNumColours] + "\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\" opacity=\"0.9\"/>\n";
  }
  s += "</g>\n";
}

}  // namespace

std::string render_accuracy_svg(const std::string& title, const std::vector<svg_panel>& panels) {
  layout g;
  std::size_t max_series = 1, max_labels = 1;
  for (const svg_panel& p : panels) {
    max_series = std::max(max_series, p.series.size());
    max_labels = std::max(max_labels, p.labels.size());
  }
  g.bar_width = max_series <= 2 ? 7 : max_series <= 4 ? 5 : 3;
  const int plot_width = static_cast<int>(max_labels) * g.group_width(max_series);
  const int width = std::max(g.left + plot_width + g.right, 480);
  const int title_height = 34;

  std::vector<int> panel_top;
  int y = title_height;
  for (const svg_panel& p : panels) {
    panel_top.push_back(y);
    y += 24 + static_cast<int>(p.series.size()) * g.legend_line + 8 + g.plot_height + g.label_space + 16;
  }
  const int height = y;

  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
       std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(height) +
       "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"11\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + std::to_string(g.left) + "\" y=\"22\" font-size=\"16\" font-weight=\"bold\">" +
       xml_escape(title) + "</text>\n";

  for (std::size_t pi = 0; pi < panels.size(); ++pi) render_panel(s, g, panels[pi], panel_top[pi], plot_width);
  s += "</svg>\n";
  return s;
}

}  // namespace langsift::eval
