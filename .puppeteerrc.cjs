// HyperFrames depends on puppeteer, but we drive Debian's chromium-headless-shell:
// never download a browser at install time (the machines have no internet).
module.exports = { skipDownload: true };
