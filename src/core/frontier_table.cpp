#include "langsift/impl/frontier/table-inl.hpp"
