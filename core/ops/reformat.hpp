// The reformat operator (cvReformat): validation, choice between the tiled transpose and the strided copy, ordering.
#pragma once

#include "../ref.hpp"

#include "../../kernels/common/view.hpp"
#include "../../kernels/reformat.hpp"

namespace cv {
class Stream;
class Tensor;
} // namespace cv

namespace cv::ops {

void reformat(const Ref<Stream> &stream, Tensor &src, Tensor &dst);

// What cvReformat would launch (exposed for CPU tests).
struct ReformatPlan {
    enum class Path { Nothing, Transpose, Copy } path = Path::Nothing;
    cvk::ReformatTranspose transpose{};
    cvk::RowView copy{};
    int32_t itemSize = 0;
};
ReformatPlan planReformat(const Tensor &src, const Tensor &dst);

} // namespace cv::ops
