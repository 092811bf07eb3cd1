#include "langsift/impl/ngram-inl.hpp"
