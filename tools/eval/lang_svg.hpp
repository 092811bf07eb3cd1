// A self-contained SVG bar chart for `langsift-eval lang --svg`: per-language accuracy bars, one
// colour per detector, grouped by language and sorted, with each detector's macro mean drawn as a
// dashed line and written in the legend. One panel per sample set.
#pragma once

#include <string>
#include <vector>

namespace langsift::eval {

struct svg_series {
  std::string name;            // detector
  std::vector<double> values;  // accuracy 0..1, parallel to svg_panel::labels
  double macro = 0;            // macro mean 0..1
};

struct svg_panel {
  std::string title;                // e.g. "sentences — 75 languages"
  std::vector<std::string> labels;  // language codes
  std::vector<svg_series> series;
};

/// Renders the panels one above the other. Languages are sorted by the first series' accuracy
/// (descending, then by code).
std::string render_accuracy_svg(const std::string& title, const std::vector<svg_panel>& panels);

}  // namespace langsift::eval
