// The example conversations ship with the app (Vite inlines them as text).
import arithmetic from '../../examples/arithmetic.json?raw';
import maze from '../../examples/maze.json?raw';
import mazeShifted from '../../examples/maze-shifted.json?raw';
import mazeWall from '../../examples/maze-wall.json?raw';
import mixedChat from '../../examples/mixed-chat.json?raw';

export const EXAMPLES: { name: string; title: string; text: string }[] = [
  { name: 'maze', title: 'Maze episode (14 turns, an inertia streak)', text: maze },
  // The same episode, its last answer giving thought and move before the path: a copy at another offset.
  { name: 'maze-shifted', title: 'Maze, last answer reordered (a shifted copy)', text: mazeShifted },
  { name: 'arithmetic', title: 'Arithmetic, facts revealed turn by turn', text: arithmetic },
  { name: 'mixed-chat', title: 'Mixed chat: new asks and edits', text: mixedChat },
  // Played by the demo model itself (scripts/inertia-turns.ts): it keeps walking into the same wall.
  { name: 'maze-wall', title: 'Maze, stuck at a wall (played by the demo model)', text: mazeWall },
];

export const START_EXAMPLE = EXAMPLES[0]!;

/** The example whose text this is exactly, if any (an edited example is no longer that example). */
export function exampleNamed(text: string): string | null {
  return EXAMPLES.find((e) => e.text === text)?.name ?? null;
}
