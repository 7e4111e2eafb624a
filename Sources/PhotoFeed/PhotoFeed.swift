// PhotoFeed: the Flickr-style REST feed over libcurl. HTTP transport lives in HTTP/.
