#include "langsift/impl/url/features-inl.hpp"
