#include "langsift/impl/punycode-inl.hpp"
