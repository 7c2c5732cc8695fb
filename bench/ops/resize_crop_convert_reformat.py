"""The fused pass: 32x1080x1920x3 uint8 NHWC -> LINEAR resize to 256x256 -> centre 224x224 crop -> float32 * 1/255
-> NCHW, as the reference's resize_crop_convert_reformat; and the same with per-channel normalisation (ImageNet
mean/std), which only ours takes. torch: the torchvision v2 chain. Bytes: source once + output once."""
from .common import Case, Spec
from .normalize import MEAN, STD

OP = "resize_crop_convert_reformat"
N, H, W, RESIZED, CROP = 32, 1080, 1920, 256, 224
OFF = (RESIZED - CROP) // 2


def case(normalize):
    def bind(cv, t, s):
        dst, src, mode = t["dst"], t["src"], cv.Interp.LINEAR
        extra = {"mean": list(MEAN), "std": list(STD)} if normalize else {}
        return lambda: cv.resize_crop_convert_reformat_into(dst, src, (RESIZED, RESIZED), mode, (OFF, OFF),
                                                            scale=1.0 / 255.0, offset=0.0, stream=s, **extra)

    def bind_torch(T, t):
        if T.F is None:
            return None
        F, src, f32 = T.F, t["src_nchw"], T.torch.float32

        def chain():
            x = F.to_dtype(F.center_crop(F.resize(src, [RESIZED, RESIZED], antialias=False), [CROP, CROP]), f32, scale=True)
            return F.normalize(x, list(MEAN), list(STD)) if normalize else x
        return chain

    src = Spec("in", (N, H, W, 3), "u8", "NHWC")
    dst = Spec("out", (N, 3, CROP, CROP), "f32", "NCHW")
    what = " + normalize (mean/std keywords)" if normalize else ""
    return Case(op=OP, name=f"{N}x{H}x{W}x3 u8 -> {RESIZED}x{RESIZED} LINEAR, crop {CROP}, f32 NCHW{what}",
                tensors={"src": src, "dst": dst,
                         "src_nchw": Spec("in", (N, H, W, 3), "u8", None, permute=(0, 3, 1, 2), view_of="src")},
                requires=("resize_crop_convert_reformat_into", "Interp"), bind=bind, bind_torch=bind_torch,
                torch_name="torchvision v2 resize, center_crop, to_dtype" + (", normalize" if normalize else ""),
                traffic=src.nbytes + dst.nbytes,
                skip={"reference": "CV-CUDA's fused call takes no mean/std; compare with the row above"} if normalize else {})


def cases():
    return [case(False), case(True)]
