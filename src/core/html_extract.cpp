#include "langsift/impl/html/extract-inl.hpp"
