#include "langsift/impl/url/parse-inl.hpp"
