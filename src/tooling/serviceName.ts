// Imported first by `npm start` and `npm run cluster`, before the logger reads SERVICE_NAME: the
// supervisor's own log lines say `video-supervisor`, not the `video-api` of the API it runs. Each
// child gets its own name (video-api, video-worker, …).
process.env.SERVICE_NAME ??= 'video-supervisor';
