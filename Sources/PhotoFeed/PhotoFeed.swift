// PhotoFeed: the Flickr-style REST feed over libcurl.
internal import CCurl
