#include "langsift/impl/idna-inl.hpp"
