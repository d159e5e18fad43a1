// Keeps the whole site in the browser's cache, so that the page opens and works with no
// network once it has been opened: every request is answered from the cache first.
// build.sh fills in the version and the list of files (all but the pages are named by
// their content). A new version is fetched whole beside the old one and waits: the pages
// open now keep the files they started with, and say that a new version is ready;
// "Reload" (or closing every tab of the site) puts it in place and drops the old cache.
'use strict';

const VERSION = 'matchbox-@VERSION@';
const FILES = @FILES@;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(FILES)));
});

// The page's "Reload" button: the new version takes over now.
self.addEventListener('message', (event) => {
  if (event.data === 'matchbox-update') self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith('matchbox-') && n !== VERSION).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  event.respondWith(caches.match(event.request, { ignoreSearch: true })
    .then((kept) => kept || fetch(event.request)));
});
