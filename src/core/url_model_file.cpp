#include "langsift/impl/url/model_file-inl.hpp"
