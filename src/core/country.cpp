#include "langsift/impl/country-inl.hpp"
