#include "langsift/impl/url/classify-inl.hpp"
