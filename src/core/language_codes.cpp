#include "langsift/impl/language_codes-inl.hpp"
