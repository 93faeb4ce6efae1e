package sitesim

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"strings"
)

// serveCover answers any cover path with a small real image whose colours
// derive from the path, as PNG or JPEG by the path's extension.
func serveCover(w http.ResponseWriter, r *http.Request) {
	h := hash64("cover", r.URL.Path)
	img := image.NewRGBA(image.Rect(0, 0, 24, 36))
	top := color.RGBA{uint8(h), uint8(h >> 8), uint8(h >> 16), 255}
	bottom := color.RGBA{uint8(h >> 24), uint8(h >> 32), uint8(h >> 40), 255}
	for y := 0; y < 36; y++ {
		for x := 0; x < 24; x++ {
			c := top
			if y > 20 {
				c = bottom
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	ct := "image/png"
	if p := strings.ToLower(r.URL.Path); strings.HasSuffix(p, ".jpg") || strings.HasSuffix(p, ".jpeg") {
		ct = "image/jpeg"
		_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80})
	} else {
		_ = png.Encode(&buf, img)
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(buf.Bytes())
}
