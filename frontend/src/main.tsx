import './styles/index.css';
import { start } from './start';

start();
