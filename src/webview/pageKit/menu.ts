/// <reference lib="dom" />
// The toolbar's "More actions" menu, like the "…" in VS Code's editor title: its button opens the
// rarer actions; the arrow keys, Home and End move among them, Enter or a click runs one (through
// the page's own click handler, which reads its data-action), Escape, Tab or a click elsewhere closes
// the menu (Escape gives the focus back to the button). Listened to on the document: the toolbar is
// drawn again with new content. The menu's markup: src/panels/html/panelPage.ts (moreMenu).
import { say } from './page';

const items = (menu: HTMLElement) => Array.from(menu.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)'));

function menuOf(button: HTMLElement): HTMLElement | null {
  const id = button.getAttribute('aria-controls');
  return id ? document.getElementById(id) : null;
}

function close(button: HTMLElement, focusButton = false): void {
  const menu = menuOf(button);
  if (!menu || menu.hidden) return;
  menu.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  if (focusButton) button.focus();
}

function open(button: HTMLElement, focus: 'first' | 'last' | 'none' = 'first'): void {
  const menu = menuOf(button);
  if (!menu) return;
  menu.hidden = false;
  button.setAttribute('aria-expanded', 'true');
  // Opens towards the page's middle: a menu at the right edge does not run out of the page.
  menu.classList.remove('to-left');
  if (menu.getBoundingClientRect().right > document.documentElement.clientWidth) menu.classList.add('to-left');
  const list = items(menu);
  if (focus !== 'none') (focus === 'last' ? list.at(-1) : list[0])?.focus();
}

const openButtons = () => Array.from(document.querySelectorAll<HTMLElement>('.more-button[aria-expanded="true"]'));

/** The menu's button, made by the page (a toolbar drawn without one). */
export function moreButton(menuId: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.className = 'more-button';
  button.id = 'more-actions';
  button.textContent = '…';
  button.title = say('moreActions', 'More actions');
  button.setAttribute('aria-label', say('moreActions', 'More actions'));
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');
  button.setAttribute('aria-controls', menuId);
  return button;
}

export function startMenus(): void {
  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const button = target?.closest<HTMLElement>('.more-button');
    for (const b of openButtons()) if (b !== button) close(b);
    if (button) {
      if (button.getAttribute('aria-expanded') === 'true') close(button);
      // A click with the mouse opens the menu; Enter or Space on the button (a click too) puts the focus in it.
      else open(button, event.detail === 0 ? 'first' : 'none');
      return;
    }
    // An item chosen: the page's click handler has its data-action; the menu closes.
    const item = target?.closest<HTMLElement>('[role="menuitem"]');
    const menu = item?.closest<HTMLElement>('[role="menu"]');
    if (menu) {
      const owner = document.querySelector<HTMLElement>(`.more-button[aria-controls="${CSS.escape(menu.id)}"]`);
      if (owner) close(owner, true);
    }
  });
  document.addEventListener('keydown', (event) => {
    const target = event.target instanceof HTMLElement ? event.target : null;
    if (!target) return;
    if (target.matches('.more-button') && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      open(target, event.key === 'ArrowUp' ? 'last' : 'first');
      return;
    }
    const menu = target.closest<HTMLElement>('[role="menu"]');
    const owner = menu && document.querySelector<HTMLElement>(`.more-button[aria-controls="${CSS.escape(menu.id)}"]`);
    if (!menu || !owner) return;
    const list = items(menu);
    const at = list.indexOf(target as HTMLButtonElement);
    const next =
      event.key === 'ArrowDown'
        ? list[(at + 1) % list.length]
        : event.key === 'ArrowUp'
          ? list[(at - 1 + list.length) % list.length]
          : event.key === 'Home'
            ? list[0]
            : event.key === 'End'
              ? list.at(-1)
              : undefined;
    if (next) {
      event.preventDefault();
      next.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      close(owner, true);
    } else if (event.key === 'Tab') close(owner);
  });
}
