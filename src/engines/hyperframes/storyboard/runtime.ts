// The page-side helpers of an offline composition, inlined before its timeline:
//  - fit(): every text ([data-fit], font-size = its largest size) shrinks, together with the other
//    texts of its box, until everything in the box lies inside it and no line is wider than its text;
//    at the smallest size long words may break. Texts sharing data-same then take the smallest of their
//    sizes. Counters are measured with their final value. Runs once before the timeline is built and
//    again when the fonts have loaded (the producer captures after document.fonts.ready): deterministic.
//  - counter(): a number counting up, as a tween of a plain object whose onUpdate writes the text in
//    the figure's own digits, separators and decimals (the same as figureAt in src/storyboard/numbers.ts).
export const PAGE_RUNTIME = String.raw`
var __fit = (function () {
  function offsetIn(el, box) {
    var x = 0, y = 0, e = el;
    while (e && e !== box) { x += e.offsetLeft; y += e.offsetTop; e = e.offsetParent; }
    return { x: x, y: y, w: el.offsetWidth, h: el.offsetHeight };
  }
  function boxFits(box, texts) {
    var W = box.clientWidth + 0.5, H = box.clientHeight + 0.5;
    var all = Array.prototype.slice.call(box.children).concat(texts);
    for (var i = 0; i < all.length; i++) {
      var r = offsetIn(all[i], box);
      if (r.x < -0.5 || r.y < -0.5 || r.x + r.w > W || r.y + r.h > H) return false;
    }
    for (var j = 0; j < texts.length; j++) {
      if (texts[j].scrollWidth > texts[j].clientWidth + 1) return false;
    }
    return true;
  }
  function setSizes(texts, s) {
    var atMin = true;
    for (var i = 0; i < texts.length; i++) {
      var max = parseFloat(texts[i].getAttribute('data-fit')), min = parseFloat(texts[i].getAttribute('data-min'));
      var size = Math.max(min, Math.floor(max * s * 2) / 2);
      if (size > min) atMin = false;
      texts[i].style.fontSize = size + 'px';
    }
    return atMin;
  }
  function fitBox(box) {
    var texts = Array.prototype.slice.call(box.querySelectorAll('[data-fit]'));
    if (!texts.length) return;
    for (var k = 0; k < texts.length; k++) texts[k].style.overflowWrap = '';
    var s = 1, broken = false;
    for (var n = 0; n < 120; n++) {
      var atMin = setSizes(texts, s);
      if (boxFits(box, texts)) return;
      if (atMin) {
        if (broken) return;
        // Even the smallest size is too wide for a word: let words break, from the largest size again.
        broken = true; s = 1;
        for (var b = 0; b < texts.length; b++) texts[b].style.overflowWrap = 'anywhere';
        continue;
      }
      s *= 0.95;
    }
  }
  return function fit() {
    var finals = Array.prototype.slice.call(document.querySelectorAll('[data-final]'));
    var shown = finals.map(function (el) {
      var t = el.textContent; el.textContent = el.getAttribute('data-final'); return t;
    });
    var boxes = document.querySelectorAll('.box');
    for (var i = 0; i < boxes.length; i++) fitBox(boxes[i]);
    var same = {};
    var texts = document.querySelectorAll('[data-same]');
    for (var j = 0; j < texts.length; j++) {
      var key = texts[j].getAttribute('data-same'), size = parseFloat(texts[j].style.fontSize);
      same[key] = Math.min(same[key] === undefined ? size : same[key], size);
    }
    for (var m = 0; m < texts.length; m++) texts[m].style.fontSize = same[texts[m].getAttribute('data-same')] + 'px';
    finals.forEach(function (el, i) { el.textContent = shown[i]; });
  };
})();
function __number(v, f) {
  var parts = Math.abs(v).toFixed(f.decimals).split('.');
  if (f.group) parts[0] = f.lakh && parts[0].length > 3
    ? parts[0].slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, f.group) + f.group + parts[0].slice(-3)
    : parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, f.group);
  var text = (v < 0 ? '-' : '') + parts.join('\u0000');
  return text.replace(/[0-9]/g, function (d) { return String.fromCodePoint(f.zero + Number(d)); })
    .replace('\u0000', f.decimal);
}
function __counter(tl, id, to, f, at, duration, ease) {
  var el = document.getElementById(id), state = { v: 0 };
  var show = function () { el.textContent = __number(state.v, f); };
  show();
  tl.to(state, { v: to, duration: duration, ease: ease, onUpdate: show }, at);
}
__fit();
if (document.fonts && document.fonts.ready) document.fonts.ready.then(__fit);
`;
