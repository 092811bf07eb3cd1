// Entry points of the `langsift-eval` modes. Each gets argv with argv[0] = the mode name.
#pragma once

namespace langsift::cli {

int eval_encoding(int argc, char** argv);  // encoding.cpp
int eval_main_content(int argc, char** argv);  // main_content.cpp
int eval_lang(int argc, char** argv);   // lang.cpp
int eval_docs(int argc, char** argv);   // lang_docs.cpp
int eval_mixed(int argc, char** argv);  // lang_mixed.cpp
int eval_spans(int argc, char** argv);  // lang_spans.cpp
int eval_junk(int argc, char** argv);   // junk.cpp

int eval_calibrate(int argc, char** argv);    // calibrate.cpp
int eval_calibration(int argc, char** argv);  // calibration.cpp
int eval_url(int argc, char** argv);        // url.cpp

}  // namespace langsift::cli
