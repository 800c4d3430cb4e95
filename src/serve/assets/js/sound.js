// @ts-check
// Move sounds, made with WebAudio on the spot (no file, no network): a
// short wooden knock for a move, a deeper double knock for a capture, two
// notes at the end. Off by default; the choice is kept in this browser.

const KEY = "tally.sound";

/** @type {AudioContext | null} */
let context = null;

/** Whether sounds are on. */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch (e) {
    return false;
  }
}

/** @param {boolean} on */
export function setSound(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (e) {
    // A browser that keeps nothing: on for this page only.
  }
  if (on) audio();
}

/** The audio context, made on first use (after a click, as browsers ask). */
function audio() {
  if (!context) {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return null;
    context = new Ctor();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/**
 * A knock: a short burst of filtered noise with a falling pitch.
 * @param {AudioContext} ac @param {number} at start time @param {number} pitch Hz @param {number} gain
 */
function knock(ac, at, pitch, gain) {
  const length = Math.floor(ac.sampleRate * 0.08);
  const buffer = ac.createBuffer(1, length, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const src = ac.createBufferSource();
  src.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.setValueAtTime(pitch, at);
  filter.frequency.exponentialRampToValueAtTime(pitch * 0.6, at + 0.07);
  filter.Q.value = 4;
  const g = ac.createGain();
  g.gain.setValueAtTime(gain, at);
  g.gain.exponentialRampToValueAtTime(0.001, at + 0.09);
  src.connect(filter).connect(g).connect(ac.destination);
  src.start(at);
}

/**
 * A soft note.
 * @param {AudioContext} ac @param {number} at @param {number} freq @param {number} length s
 */
function note(ac, at, freq, length) {
  const o = ac.createOscillator();
  o.type = "sine";
  o.frequency.value = freq;
  const g = ac.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
  g.gain.exponentialRampToValueAtTime(0.0001, at + length);
  o.connect(g).connect(ac.destination);
  o.start(at);
  o.stop(at + length + 0.05);
}

/**
 * Plays a sound when sounds are on.
 * @param {"move" | "capture" | "end"} kind
 */
export function play(kind) {
  if (!soundOn()) return;
  const ac = audio();
  if (!ac) return;
  const t = ac.currentTime + 0.01;
  if (kind === "move") knock(ac, t, 1400, 0.9);
  else if (kind === "capture") {
    knock(ac, t, 900, 1);
    knock(ac, t + 0.05, 700, 0.7);
  } else {
    note(ac, t, 523.25, 0.35);
    note(ac, t + 0.18, 659.25, 0.5);
  }
}
