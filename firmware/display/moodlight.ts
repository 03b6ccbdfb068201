// The mood light: the whole panel in one colour at its own brightness, instead of the apps. Only
// its state lives here (the render loop reads it every frame); PUT, DELETE and the view that
// GET /api/v1/display shows are display/moodlight-apply.ts, used by the handler modules.

export class Moodlight {
  on = false;
  /** Until a colour is set the light is white at 120. */
  color = 0xffffff;
  brightness = 120;
}
