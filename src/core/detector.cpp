#include "langsift/impl/detector-inl.hpp"
// Spans run the detector's stages (one translation unit: their definitions are not inline here).
#include "langsift/impl/spans-inl.hpp"
