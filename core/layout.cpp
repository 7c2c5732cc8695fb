#include "layout.hpp"

#include "error.hpp"

#include <cstring>

namespace cv {

std::string parseLayout(const char *layout, int32_t ndim, const char *field) {
    if (layout == nullptr) return {};
    const size_t len = strnlen(layout, CV_MAX_DIMS + 1);
    const std::string quoted = concat("'", std::string(layout, len), len > CV_MAX_DIMS ? "...'" : "'");
    if (len != static_cast<size_t>(ndim))
        invalid(currentFunction(), ": ", field, "=", quoted, " has ", len, len > CV_MAX_DIMS ? "+" : "",
                " labels but the tensor has ndim=", ndim, " (one label per dimension)");
    for (size_t i = 0; i < len; ++i) {
        if (std::strchr(kLayoutLabels, layout[i]) == nullptr || layout[i] == '\0')
            invalid(currentFunction(), ": ", field, "=", quoted, " has an unknown label '", layout[i], "' at position ", i,
                    " (labels: ", kLayoutLabels, ")");
        if (std::memchr(layout, layout[i], i) != nullptr)
            invalid(currentFunction(), ": ", field, "=", quoted, " repeats the label '", layout[i], "'");
    }
    return std::string(layout, len);
}

} // namespace cv
