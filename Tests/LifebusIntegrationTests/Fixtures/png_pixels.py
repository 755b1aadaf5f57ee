"""Prints the colour of pixels of a PNG, one "R G B" line per requested point, in order.

Usage: python3 png_pixels.py FILE.png X,Y [X,Y ...]. Also "ink:X0,Y0,X1,Y1" prints the number of pixels in that
rectangle that are not near-white (text and marks drawn there), as "N".
"""

import sys

from PIL import Image


def main(path, points):
    image = Image.open(path).convert("RGB")
    print(f"size {image.width} {image.height}")
    for point in points:
        if point.startswith("ink:"):
            x0, y0, x1, y1 = (int(v) for v in point[4:].split(","))
            count = sum(1 for x in range(x0, x1) for y in range(y0, y1)
                        if min(image.getpixel((x, y))) < 200)
            print(count)
        else:
            x, y = (int(round(float(v))) for v in point.split(","))
            print(*image.getpixel((x, y)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
