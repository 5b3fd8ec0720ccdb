const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * What a long operation is doing, on stderr so that stdout stays the document or the diff. On a terminal a spinner
 * turns on one line that is cleared at the end; in a CI log each step is one plain line.
 */
export class Progress {
  private timer: NodeJS.Timeout | undefined;
  private text = '';
  private frame = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  show(text: string) {
    this.text = text;
    if (!this.stream.isTTY) {
      this.stream.write(`${text}\n`);
      return;
    }
    if (!this.timer) {
      this.timer = setInterval(() => this.render(), 80);
      // a spinner never keeps the process alive
      this.timer.unref();
    }
    this.render();
  }

  stop() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.stream.write('\r\x1b[K');
  }

  private render() {
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stream.write(`\r\x1b[K${FRAMES[this.frame]} ${this.text}`);
  }
}

/** 1234 → "1,234", as every count cbh prints. */
export const count = (n: number) => n.toLocaleString('en-US');
