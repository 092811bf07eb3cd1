#include "langsift/impl/url_train-inl.hpp"
