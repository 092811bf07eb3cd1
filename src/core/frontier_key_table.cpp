#include "langsift/impl/frontier/key_table-inl.hpp"
