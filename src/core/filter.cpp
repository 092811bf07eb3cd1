#include "langsift/impl/filter-inl.hpp"
