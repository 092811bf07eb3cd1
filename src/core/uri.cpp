#include "langsift/impl/uri-inl.hpp"
