// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for kembed's offline parser: the input is taken as an
 * image (raw, ELF, compressed at any offset) and as /proc/embedded_blobs
 * text. Every artifact found is located, hashed and, when it says it is
 * compressed, decompressed, as list, verify and extract -d would.
 */

#include <stdlib.h>
#include <string.h>

#include "../kembed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct catalog c;
	struct image im;
	char *text;

	opt.quiet = true;
	/* small, so that a decompression bomb costs milliseconds */
	opt.limit = 1 << 20;
	opt.memlimit = 16 << 20;

	memset(&im, 0, sizeof(im));
	im.path = "fuzz";
	im.data = data;
	im.len = size;
	image_scan(&im);
	for (size_t i = 0; i < im.nart; i++) {
		const struct artifact *a = &im.art[i];
		struct out o = { .limit = opt.limit };
		uint8_t md[SHA256_LEN];
		enum codec codec;
		char where[160];
		size_t used;

		artifact_where(&im, a, where, sizeof(where));
		if (!a->payload)
			continue;
		sha256(a->payload, a->size, md);
		if (codec_from_name(a->compression, &codec)) {
			decompress(codec, a->payload, a->size, true, &o, &used);
			free(o.buf);
		}
	}
	image_free(&im);

	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	memset(&c, 0, sizeof(c));
	parse_blob_list(&c, "fuzz", text, size);
	catalog_free(&c);
	free(text);
	return 0;
}
