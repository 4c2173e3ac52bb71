#!/usr/bin/python3
"""Makes the MNIST-format (IDX) digit files in this folder from ../shared/data/digits.csv.gz.

Source: the UCI "Optical Recognition of Handwritten Digits" test set (E. Alpaydin, C. Kaynak,
1998; CC BY 4.0; via the UCI Machine Learning Repository), 1,797 images of 8x8 pixels 0..16 with
their labels, as shipped by Debian's python3-sklearn.

Each 8x8 image is scaled to 32x32 (LeNet5's input size) by bilinear interpolation with pixel
centres aligned (the 8x8 grid's centres sit at 4*i + 1.5 in the 32x32 grid; edges clamp), then
mapped from 0..16 to 0..255 and rounded. The first 1,500 images are the training set, the other
297 the test set, in file order. Standard library only, so the output is the same everywhere:
    /usr/bin/python3 samples/data/make_digits_idx.py ../shared/data/digits.csv.gz samples/data
"""
import gzip
import struct
import sys

SIZE = 32
TRAIN = 1500


def upscale(pixels):
    out = []
    for y in range(SIZE):
        sy = min(max((y - 1.5) / 4.0, 0.0), 7.0)
        y0 = int(sy)
        y1 = min(y0 + 1, 7)
        fy = sy - y0
        for x in range(SIZE):
            sx = min(max((x - 1.5) / 4.0, 0.0), 7.0)
            x0 = int(sx)
            x1 = min(x0 + 1, 7)
            fx = sx - x0
            top = pixels[y0 * 8 + x0] * (1 - fx) + pixels[y0 * 8 + x1] * fx
            bottom = pixels[y1 * 8 + x0] * (1 - fx) + pixels[y1 * 8 + x1] * fx
            v = (top * (1 - fy) + bottom * fy) / 16.0 * 255.0
            out.append(int(v + 0.5))
    return bytes(out)


def write(path_images, path_labels, rows):
    with open(path_images, "wb") as f:
        f.write(struct.pack(">IIII", 0x00000803, len(rows), SIZE, SIZE))
        for pixels, _ in rows:
            f.write(upscale(pixels))
    with open(path_labels, "wb") as f:
        f.write(struct.pack(">II", 0x00000801, len(rows)))
        f.write(bytes(label for _, label in rows))


def main():
    src, out = sys.argv[1], sys.argv[2]
    rows = []
    with gzip.open(src, "rt") as f:
        for line in f:
            values = [int(v) for v in line.split(",")]
            rows.append((values[:64], values[64]))
    write(out + "/digits-train-images-idx3-ubyte", out + "/digits-train-labels-idx1-ubyte", rows[:TRAIN])
    write(out + "/digits-test-images-idx3-ubyte", out + "/digits-test-labels-idx1-ubyte", rows[TRAIN:])
    print("wrote %d training and %d test images of %dx%d" % (TRAIN, len(rows) - TRAIN, SIZE, SIZE))


if __name__ == "__main__":
    main()
