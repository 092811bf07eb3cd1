#include "langsift/impl/options-inl.hpp"
