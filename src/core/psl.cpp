#include "langsift/impl/psl-inl.hpp"
